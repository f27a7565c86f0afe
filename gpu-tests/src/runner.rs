//! Doing the work: building each variant with each toolchain, launching in child processes,
//! judging, and the `ptxguard confirm` cross-check.

use crate::cuda::{self, Job, RunResult};
use crate::harness::{self, Build, Case, Eval, Kind, Outcome, Step, Toolchain};
use crate::header::{Artifact, Expect, Header};
use crate::util::{parallel_map, run_with_limit};
use ptxguard_toolchain::nvrtc::NvrtcLimit;
use ptxguard_toolchain::Toolkit;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// What is available on this machine.
#[derive(Clone, Debug)]
pub struct Env {
    pub nvcc: Option<Toolkit>,
    pub nvrtc: bool,
    /// `$CUDA_HOME/include` (for NVRTC's `#include`s).
    pub include: Option<PathBuf>,
    /// Small `<cstdint>`/`<cstddef>` headers for NVRTC, which has no C++ standard library.
    pub shim: Option<PathBuf>,
    pub device: Option<cuda::DeviceInfo>,
    /// This program, to launch `exec` children.
    pub exe: PathBuf,
    pub work: PathBuf,
    pub jobs: usize,
    /// Launches at once.
    pub gpu_jobs: usize,
}

impl Env {
    pub fn primary(&self) -> Option<Toolchain> {
        if self.nvcc.is_some() {
            Some(Toolchain::Nvcc)
        } else if self.nvrtc {
            Some(Toolchain::Nvrtc)
        } else {
            None
        }
    }

    pub fn toolchains(&self) -> Vec<Toolchain> {
        let mut v = Vec::new();
        if self.nvcc.is_some() {
            v.push(Toolchain::Nvcc);
        }
        if self.nvrtc {
            v.push(Toolchain::Nvrtc);
        }
        v
    }

    /// Whether a CUBIN for `target` loads on the device.
    fn runs_natively(&self, target: &str) -> bool {
        match &self.device {
            Some(d) => target.trim_end_matches(['a', 'f']) == d.sm,
            None => false,
        }
    }
}

fn arch_num(target: &str) -> &str {
    target.trim_start_matches("sm_")
}

fn needs_sass(h: &Header) -> bool {
    h.bad.iter().chain(&h.good).any(|e| {
        matches!(
            e,
            Expect::Contains {
                artifact: Artifact::Sass,
                ..
            }
        )
    })
}

fn step(o: std::io::Result<crate::util::Output>, what: &str) -> Step {
    match o {
        Ok(o) => Step {
            ok: o.success,
            text: if o.timed_out {
                format!("{what} timed out\n{}", o.text)
            } else {
                o.text
            },
        },
        Err(e) => Step {
            ok: false,
            text: format!("harness: cannot run {what}: {e}"),
        },
    }
}

/// Builds one variant with nvcc + ptxas for each target (messages of every target kept; the
/// first target's output is the one run).
fn build_nvcc(env: &Env, tk: &Toolkit, src: &Path, dir: &Path, h: &Header) -> Build {
    let targets = h.targets();
    let mut front_all = String::new();
    let mut asm_all = String::new();
    let (mut front_ok, mut asm_ok) = (true, true);
    let mut first: Option<(String, PathBuf, PathBuf)> = None;
    for (i, t) in targets.iter().enumerate() {
        let ptx = dir.join(format!("nvcc{i}.ptx"));
        let cubin = dir.join(format!("nvcc{i}.cubin"));
        // `-arch=compute_XX`: PTX only. With `-arch=sm_XX`, `nvcc -ptx` also runs ptxas on
        // its output, and its messages would look like the front end's.
        let mut cmd = Command::new(&tk.nvcc);
        cmd.arg(format!("-arch=compute_{}", arch_num(t)))
            .arg("-O3")
            .args(&h.flags)
            .arg("-ptx")
            .arg("-o")
            .arg(&ptx)
            .arg(src);
        let fe = step(run_with_limit(cmd, Duration::from_secs(180)), "nvcc");
        // `nvcc -ptx` checks its output with ptxas (even for compute_XX): when only ptxas
        // complained, the front end did its part and the errors are ptxas's.
        let front_end_error = fe.text.lines().any(|l| {
            l.contains("): error")
                || l.contains("): catastrophic")
                || l.contains("Internal Compiler Error")
        });
        if !fe.ok
            && !front_end_error
            && fe.text.lines().any(|l| l.trim_start().starts_with("ptxas"))
        {
            asm_all.push_str(&fe.text);
            asm_ok = false;
            continue;
        }
        front_all.push_str(&fe.text);
        if !fe.ok {
            front_ok = false;
            continue;
        }
        let Some(ptxas) = &tk.ptxas else {
            asm_all.push_str("harness: no ptxas beside nvcc\n");
            asm_ok = false;
            continue;
        };
        let mut cmd = Command::new(ptxas);
        cmd.arg(format!("-arch={t}"))
            .arg("-O3")
            .arg(&ptx)
            .arg("-o")
            .arg(&cubin);
        let a = step(run_with_limit(cmd, Duration::from_secs(180)), "ptxas");
        asm_all.push_str(&a.text);
        asm_ok &= a.ok;
        if i == 0 {
            first = Some((t.clone(), ptx.clone(), cubin.clone()));
        }
    }
    let mut b = Build {
        toolchain: Toolchain::Nvcc,
        front_end: Step {
            ok: front_ok,
            text: front_all,
        },
        assemble: front_ok.then_some(Step {
            ok: asm_ok,
            text: asm_all,
        }),
        ptx: None,
        sass: None,
        image: None,
        run: None,
        unusable: None,
    };
    if let Some((t, ptx, cubin)) = first {
        b.ptx = std::fs::read_to_string(&ptx).ok();
        if asm_ok {
            if needs_sass(h) {
                if let Some(cuobjdump) = &tk.cuobjdump {
                    let mut cmd = Command::new(cuobjdump);
                    cmd.arg("-sass").arg(&cubin);
                    if let Ok(o) = run_with_limit(cmd, Duration::from_secs(60)) {
                        b.sass = Some(o.stdout);
                    }
                }
            }
            b.image = Some(if env.runs_natively(&t) { cubin } else { ptx });
        }
    }
    b
}

/// Builds one variant with NVRTC: to `compute_XX` (PTX, the front end), then to `sm_XX`
/// (NVRTC's ptxas makes the CUBIN).
fn build_nvrtc(env: &Env, text: &str, name: &str, dir: &Path, h: &Header) -> Build {
    let mut extra: Vec<String> = h.flags.clone();
    if let Some(shim) = &env.shim {
        extra.push(format!("-I{}", shim.display()));
    }
    if let Some(inc) = &env.include {
        extra.push(format!("-I{}", inc.display()));
    }
    let targets = h.targets();
    let mut b = Build {
        toolchain: Toolchain::Nvrtc,
        front_end: Step::default(),
        assemble: None,
        ptx: None,
        sass: None,
        image: None,
        run: None,
        unusable: None,
    };
    let (mut front_ok, mut asm_ok) = (true, true);
    let (mut front_text, mut asm_text) = (String::new(), String::new());
    for (i, t) in targets.iter().enumerate() {
        let num = arch_num(t);
        match cuda::nvrtc_compile(text, name, &format!("compute_{num}"), &extra) {
            Err(e) => {
                b.unusable = Some(e);
                return b;
            }
            Ok(o) => {
                front_text.push_str(&o.log);
                if !o.success {
                    front_ok = false;
                    if let Some(limit) = NvrtcLimit::of(&o.log) {
                        let why = match limit {
                            NvrtcLimit::HostCode => "NVRTC compiles device code only",
                            NvrtcLimit::MissingHeader => "NVRTC cannot open a header",
                        };
                        b.unusable = Some(format!("{why}: {}", harness::first_error(&o.log)));
                    }
                    continue;
                }
                if i == 0 {
                    b.ptx = o.ptx.clone();
                }
            }
        }
        match cuda::nvrtc_compile(text, name, &format!("sm_{num}"), &extra) {
            Err(e) => {
                b.unusable = Some(e);
                return b;
            }
            Ok(o) => {
                asm_text.push_str(&o.log);
                asm_ok &= o.success;
                if i == 0 && o.success {
                    if env.runs_natively(t) {
                        if let Some(cubin) = o.cubin {
                            let p = dir.join("nvrtc.cubin");
                            if std::fs::write(&p, cubin).is_ok() {
                                b.image = Some(p);
                            }
                        }
                    } else if let Some(ptx) = &b.ptx {
                        let p = dir.join("nvrtc.ptx");
                        if std::fs::write(&p, ptx).is_ok() {
                            b.image = Some(p);
                        }
                    }
                }
            }
        }
    }
    b.front_end = Step {
        ok: front_ok,
        text: front_text,
    };
    if front_ok {
        b.assemble = Some(Step {
            ok: asm_ok,
            text: asm_text,
        });
    }
    b
}

/// One variant of one case to build.
struct Unit {
    case: usize,
    /// 0: the case's text; 1: the fixed text.
    variant: usize,
    toolchain: Toolchain,
    text: String,
}

/// The result of one case.
#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    pub rule: String,
    pub case: String,
    pub kind: Kind,
    pub outcome: Outcome,
    pub evidence: String,
    pub fix: String,
    /// The other toolchain's verdicts (NVRTC when nvcc was primary).
    pub also: Vec<String>,
    /// Rules ptxguard reports on the case.
    pub ptxguard: Vec<String>,
    /// Whether ptxguard reports the folder's rule (bad cases).
    pub rule_reported: Option<bool>,
    /// What `ptxguard confirm` made of the case (nvcc builds of bad cases).
    pub confirm: Option<String>,
    /// The plain-English `// gpu:` lines.
    pub english: Vec<String>,
    pub expect_bad: Vec<String>,
    pub expect_good: Vec<String>,
    /// Every build, for the JSON.
    pub builds: Vec<(String, Build)>,
}

fn run_job(env: &Env, b: &Build, h: &Header, dir: &Path, tag: &str) -> Option<RunResult> {
    let launch = h.launch.as_ref()?;
    let image = b.image.as_ref()?;
    let launch_text = h.launch_text.clone().unwrap_or_default();
    let entries = b.ptx.as_deref().map(cuda::ptx_entries).unwrap_or_default();
    let entry = match cuda::find_entry(&entries, &launch.kernel) {
        Ok(e) => e,
        Err(e) => return Some(RunResult::HarnessError { error: e }),
    };
    let job = Job {
        image: image.display().to_string(),
        entry,
        launch: launch_text,
    };
    let path = dir.join(format!("job-{tag}.json"));
    if let Err(e) = std::fs::write(&path, serde_json::to_string(&job).unwrap_or_default()) {
        return Some(RunResult::HarnessError {
            error: format!("{}: {e}", path.display()),
        });
    }
    let mut cmd = Command::new(&env.exe);
    cmd.arg("exec").arg(&path);
    match run_with_limit(cmd, Duration::from_secs(30)) {
        Err(e) => Some(RunResult::HarnessError {
            error: format!("cannot start the child: {e}"),
        }),
        Ok(o) if o.timed_out => Some(RunResult::Hang),
        Ok(o) => {
            let line = o.stdout.lines().rev().find(|l| l.starts_with('{'));
            match line.and_then(|l| serde_json::from_str(l).ok()) {
                Some(r) => Some(r),
                None => Some(RunResult::HarnessError {
                    error: format!(
                        "the child printed no result: {}",
                        harness::first_error(&o.text)
                    ),
                }),
            }
        }
    }
}

/// `ptxguard confirm`'s view of a bad case (one more nvcc build, with `-lineinfo --keep`).
fn confirm_case(tk: &Toolkit, case: &Case, h: &Header, dir: &Path) -> String {
    let mut flags: Vec<String> = h
        .targets()
        .iter()
        .map(|t| format!("-arch={t}"))
        .take(1)
        .collect();
    flags.push("-O3".into());
    flags.extend(h.flags.iter().cloned());
    let build = match ptxguard_toolchain::build_with_nvcc(tk, &case.path, &flags, dir) {
        Ok(b) => b,
        Err(e) => return format!("harness: {e}"),
    };
    let Ok(file) = ptxguard_analyzer::SourceFile::from_bytes(
        case.path.clone(),
        case.text.clone().into_bytes(),
    ) else {
        return "harness: cannot read the case".into();
    };
    let statements = ptxguard_analyzer::statements::find_asm_statements(&file);
    let findings = ptxguard_toolchain::findings_for(&file, &h.sm_targets());
    let r = ptxguard_toolchain::compare(&file, &statements, &findings, &build);
    let mut parts = Vec::new();
    for f in &r.findings {
        let ev = if f.evidence.is_empty() {
            String::new()
        } else {
            format!(" by {}", f.evidence[0])
        };
        parts.push(format!("{} {}{}", f.rule, f.verdict, ev));
    }
    for l in &r.not_predicted {
        parts.push(format!(
            "not predicted at line {}: {}",
            l.statement_line.unwrap_or(0),
            l.message.text
        ));
    }
    for l in &r.elsewhere {
        parts.push(format!(
            "not at an asm statement ({}): {}",
            l.how, l.message.text
        ));
    }
    if parts.is_empty() {
        parts.push("no findings, no errors".into());
    }
    format!(
        "build {}; {}",
        if r.build_succeeded {
            "succeeded"
        } else {
            "failed"
        },
        parts.join("; ")
    )
}

/// "rule/bad-x.cu (nvcc, fixed)", for the progress bar.
fn unit_label(c: &Case, u: &Unit) -> String {
    let fixed = if u.variant == 1 { ", fixed" } else { "" };
    format!("{} ({}{fixed})", c.name, u.toolchain.as_str())
}

/// Builds, runs and judges every case.
pub fn run_cases(env: &Env, cases: &[Case]) -> Vec<CaseResult> {
    // Fixes first (the library), then every build in parallel.
    let fixed: Vec<Option<harness::Fixed>> = cases
        .iter()
        .map(|c| match &c.header {
            Ok(h) => Some(harness::apply_fixes(&c.path, &c.text, &h.sm_targets())),
            Err(_) => None,
        })
        .collect();
    let mut units = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let Ok(_) = &c.header else { continue };
        for tc in env.toolchains() {
            units.push(Unit {
                case: i,
                variant: 0,
                toolchain: tc,
                text: c.text.clone(),
            });
            if c.kind == Kind::Bad {
                if let Some(f) = &fixed[i] {
                    if !f.applied.is_empty() {
                        units.push(Unit {
                            case: i,
                            variant: 1,
                            toolchain: tc,
                            text: f.text.clone(),
                        });
                    }
                }
            }
        }
    }
    let build_unit = |u: &Unit| -> Build {
        let c = &cases[u.case];
        let h = c.header.as_ref().expect("checked");
        let dir = env.work.join(format!(
            "{}-v{}-{}",
            c.name.replace(['/', '.'], "_"),
            u.variant,
            u.toolchain.as_str()
        ));
        let _ = std::fs::create_dir_all(&dir);
        // Keep the case's file name: messages name it.
        let file_name = c
            .path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| "case.cu".into());
        let src = dir.join(&file_name);
        if let Err(e) = std::fs::write(&src, &u.text) {
            return Build {
                toolchain: u.toolchain,
                front_end: Step::default(),
                assemble: None,
                ptx: None,
                sass: None,
                image: None,
                run: None,
                unusable: Some(format!("cannot write {}: {e}", src.display())),
            };
        }
        match u.toolchain {
            Toolchain::Nvcc => build_nvcc(env, env.nvcc.as_ref().expect("nvcc"), &src, &dir, h),
            Toolchain::Nvrtc => build_nvrtc(env, &u.text, &file_name, &dir, h),
        }
    };
    // A progress bar on a terminal only (stderr piped: nothing).
    let progress = ptxguard_toolchain::progress::Progress::stderr("gpu-tests: build", units.len());
    let builds: Vec<Build> = parallel_map(&units, env.jobs, |u| {
        let label = unit_label(&cases[u.case], u);
        progress.start(&label);
        let build = build_unit(u);
        progress.finish(&label);
        build
    });
    drop(progress);
    // Launches, a few at a time.
    let runnable: Vec<usize> = (0..units.len())
        .filter(|&k| {
            let h = cases[units[k].case].header.as_ref().expect("checked");
            h.launch.is_some() && builds[k].image.is_some()
        })
        .collect();
    let runs: Vec<Option<RunResult>> = if env.device.is_some() {
        let progress =
            ptxguard_toolchain::progress::Progress::stderr("gpu-tests: launch", runnable.len());
        let runs = parallel_map(&runnable, env.gpu_jobs, |&k| {
            let u = &units[k];
            let c = &cases[u.case];
            let h = c.header.as_ref().expect("checked");
            let dir = env.work.join("jobs");
            let _ = std::fs::create_dir_all(&dir);
            let label = unit_label(c, u);
            progress.start(&label);
            let run = run_job(env, &builds[k], h, &dir, &format!("{k}"));
            progress.finish(&label);
            run
        });
        drop(progress);
        runs
    } else {
        runnable.iter().map(|_| None).collect()
    };
    let mut builds = builds;
    for (k, r) in runnable.iter().zip(runs) {
        builds[*k].run = r;
        if let Some(RunResult::LoadError { .. }) = &builds[*k].run {
            // A JIT error is an assembly error of this build.
            if let Some(a) = &mut builds[*k].assemble {
                a.ok = false;
            }
        }
    }
    // ptxguard confirm on bad cases.
    let confirms: Vec<Option<String>> = match &env.nvcc {
        Some(tk) => parallel_map(cases, env.jobs, |c| {
            let h = c.header.as_ref().ok()?;
            if c.kind != Kind::Bad {
                return None;
            }
            let dir = env
                .work
                .join(format!("confirm-{}", c.name.replace(['/', '.'], "_")));
            let _ = std::fs::create_dir_all(&dir);
            Some(confirm_case(tk, c, h, &dir))
        }),
        None => cases.iter().map(|_| None).collect(),
    };

    let mut out = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let base = CaseResult {
            rule: c.rule.clone(),
            case: c.name.clone(),
            kind: c.kind,
            outcome: Outcome::HarnessError,
            evidence: String::new(),
            fix: "-".into(),
            also: Vec::new(),
            ptxguard: fixed[i]
                .as_ref()
                .map(|f| f.reported.clone())
                .unwrap_or_default(),
            rule_reported: None,
            confirm: confirms[i].clone(),
            english: Vec::new(),
            expect_bad: Vec::new(),
            expect_good: Vec::new(),
            builds: Vec::new(),
        };
        let h = match &c.header {
            Ok(h) => h,
            Err(e) => {
                out.push(CaseResult {
                    evidence: format!("bad GPU header: {e}"),
                    ..base
                });
                continue;
            }
        };
        let mut r = CaseResult {
            english: h.english.clone(),
            expect_bad: h.bad.iter().map(|e| e.to_string()).collect(),
            expect_good: h.good.iter().map(|e| e.to_string()).collect(),
            rule_reported: (c.kind == Kind::Bad && c.rule != "-")
                .then(|| base.ptxguard.contains(&c.rule)),
            ..base
        };
        let Some(primary) = env.primary() else {
            r.evidence = "no toolchain (neither nvcc nor NVRTC)".into();
            out.push(r);
            continue;
        };
        let find = |variant: usize, tc: Toolchain| {
            units
                .iter()
                .position(|u| u.case == i && u.variant == variant && u.toolchain == tc)
                .map(|k| &builds[k])
        };
        let first_exp = if c.kind == Kind::Bad { &h.bad } else { &h.good };
        let good_exp = harness::default_good(h);
        let applied = fixed[i]
            .as_ref()
            .map(|f| f.applied.clone())
            .unwrap_or_default();
        let judge = |tc: Toolchain| {
            let b = find(0, tc)?;
            let bad = harness::eval_all(first_exp, b);
            let fixed_eval = find(1, tc).map(|fb| harness::eval_all(&good_exp, fb));
            Some(harness::classify(
                c.kind,
                &bad,
                fixed_eval.as_ref(),
                &applied,
            ))
        };
        match judge(primary) {
            Some(j) => {
                r.outcome = j.outcome;
                r.evidence = j.evidence;
                r.fix = j.fix;
                if let Some(conflict) = fixed[i].as_ref().and_then(|f| f.conflict.clone()) {
                    r.fix = format!("{} [{conflict}]", r.fix);
                }
            }
            None => r.evidence = "not built".into(),
        }
        for tc in env.toolchains() {
            if tc == primary {
                continue;
            }
            if let Some(j) = judge(tc) {
                r.also.push(format!(
                    "{}: {} ({}){}",
                    tc.as_str(),
                    j.outcome.as_str(),
                    j.evidence,
                    if j.fix != "-" {
                        format!("; fix {}", j.fix)
                    } else {
                        String::new()
                    }
                ));
            }
        }
        for tc in env.toolchains() {
            for v in [0, 1] {
                if let Some(b) = find(v, tc) {
                    let label = format!("{}{}", tc.as_str(), if v == 1 { " (fixed)" } else { "" });
                    r.builds.push((label, b.clone()));
                }
            }
        }
        out.push(r);
    }
    out
}

/// Turns a harness verdict on a good expectation into text (for tests and the summary).
pub fn eval_text(e: &Eval) -> &str {
    match e {
        Eval::Holds(s) | Eval::Fails(s) | Eval::Unknown(s) => s,
    }
}
