//! How long reading a 5,000-entry compilation database and its include graph takes.
//! `cargo run -p ptxguard-analyzer --example database_speed [ENTRIES]`: writes a generated
//! project (each unit including a chain of project headers) under the temporary folder,
//! then times `Database::parse` and the first header lookup (which builds the graph).

use ptxguard_analyzer::build::Database;
use std::time::Instant;

fn main() {
    let entries: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(5000);
    let root = std::env::temp_dir().join(format!("ptxguard-db-speed-{entries}"));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("include/lib")).unwrap();
    // 50 headers, each including the next two: every unit reaches most of them.
    for h in 0..50 {
        let mut text = String::from("#pragma once\n");
        for next in [h + 1, h + 2] {
            if next < 50 {
                text.push_str(&format!("#include \"h{next}.cuh\"\n"));
            }
        }
        text.push_str("#include <cuda_runtime.h>\n__device__ int f() { return 0; }\n");
        std::fs::write(root.join(format!("include/lib/h{h}.cuh")), text).unwrap();
    }
    let mut db = String::from("[\n");
    for i in 0..entries {
        let dir = root.join(format!("src/m{}", i / 100));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("k{i}.cu"));
        std::fs::write(
            &file,
            format!(
                "#include <lib/h{}.cuh>\n#include \"local.h\"\n__global__ void k() {{}}\n",
                i % 50
            ),
        )
        .unwrap();
        if i > 0 {
            db.push_str(",\n");
        }
        db.push_str(&format!(
            r#"{{"directory": "{b}", "file": "{f}", "command": "/usr/bin/ccache /usr/local/cuda/bin/nvcc -DMODULE={i} -I{r}/include -isystem /usr/local/cuda/include \"--generate-code=arch=compute_80,code=[compute_80,sm_80]\" \"--generate-code=arch=compute_90a,code=[compute_90a,sm_90a]\" -O3 -x cu -c {f} -o k{i}.o"}}"#,
            b = root.join("build").display(),
            f = file.display(),
            r = root.display(),
        ));
    }
    db.push_str("\n]\n");
    let path = root.join("build/compile_commands.json");
    std::fs::create_dir_all(root.join("build")).unwrap();
    std::fs::write(&path, &db).unwrap();

    let start = Instant::now();
    let text = std::fs::read_to_string(&path).unwrap();
    let db = Database::parse(&path, &text).unwrap();
    let parsed = start.elapsed();
    let header = root.join("include/lib/h49.cuh");
    let (build, units) = db.build_for(&header).expect("included");
    let total = start.elapsed();
    println!(
        "{} entries ({} KB): parsed in {:.1} ms; include graph and first header lookup in {:.1} ms; total {:.1} ms ({} units include h49.cuh, targets {:?})",
        db.entries.len(),
        text.len() / 1024,
        parsed.as_secs_f64() * 1e3,
        (total - parsed).as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3,
        units.len(),
        build.targets.len()
    );
    let _ = std::fs::remove_dir_all(&root);
}
