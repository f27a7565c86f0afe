//! Times reading CMake projects: `cmake_time FILE...` (each a top CMakeLists.txt).
use ptxguard_analyzer::build::cmake;
use ptxguard_analyzer::build::CudaVersion;
use std::path::Path;
use std::time::Instant;

fn main() {
    let mut total = 0.0;
    for a in std::env::args().skip(1) {
        let t = Instant::now();
        let p = cmake::read(Path::new(&a), CudaVersion::DEFAULT);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        total += ms;
        println!("{ms:8.2} ms {:5} units {a}", p.unit_count());
    }
    println!("{total:8.2} ms total");
}
