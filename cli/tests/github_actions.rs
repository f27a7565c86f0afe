//! The GitHub Actions recipes in docs/github-actions.md: every YAML block parses, the workflows
//! have the shape GitHub runs, and every `ptxguard` command in them parses with the real CLI's
//! arguments, with the output format its consumer (code scanning, reviewdog) reads.

use clap::Parser;
use ptxguard::args::{Cli, Command, OutputFormat};
use yaml_rust2::{Yaml, YamlLoader};

fn doc() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/github-actions.md");
    std::fs::read_to_string(path).unwrap()
}

/// The fenced blocks of one language.
fn blocks(markdown: &str, language: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match &mut current {
            None if line.trim() == format!("```{language}") => current = Some(String::new()),
            Some(_) if line.trim() == "```" => out.push(current.take().unwrap()),
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    assert!(current.is_none(), "an unclosed ```{language} block");
    out
}

/// Words of one shell command line (quotes removed), as `sh` splits them.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    assert!(quote.is_none(), "unbalanced quotes in {line:?}");
    if in_word {
        words.push(word);
    }
    words
}

/// The commands of a shell script: continuation lines joined, split at `|`, `&&`, `;` and
/// cut at a redirection (`>`).
fn commands(script: &str) -> Vec<Vec<String>> {
    let joined = script.replace("\\\n", " ");
    let mut out = Vec::new();
    for line in joined.lines() {
        let line = line.split(" #").next().unwrap();
        for part in line.split(['|', ';']).flat_map(|p| p.split("&&")) {
            let part = part.split('>').next().unwrap();
            let words = shell_words(part);
            if !words.is_empty() {
                out.push(words);
            }
        }
    }
    out
}

fn parse_ptxguard(words: &[String]) -> Result<Cli, clap::Error> {
    Cli::try_parse_from(words)
}

fn output_format(words: &[String]) -> OutputFormat {
    match parse_ptxguard(words).unwrap().command {
        Command::Check(args) => args.output_format,
        other => panic!("not a check: {other:?}"),
    }
}

/// Every `run:` script of a workflow's steps.
fn steps(workflow: &Yaml) -> Vec<&Yaml> {
    let jobs = workflow["jobs"].as_hash().expect("`jobs`");
    assert!(!jobs.is_empty());
    let mut out = Vec::new();
    for (name, job) in jobs {
        assert!(
            job["runs-on"].as_str().is_some(),
            "job {name:?} has no runs-on"
        );
        let steps = job["steps"].as_vec().expect("`steps`");
        for step in steps {
            assert!(
                step["uses"].as_str().is_some() != step["run"].as_str().is_some(),
                "a step needs `uses` or `run`: {step:?}"
            );
            out.push(step);
        }
    }
    out
}

fn step_commands(steps: &[&Yaml]) -> Vec<Vec<String>> {
    steps
        .iter()
        .filter_map(|s| s["run"].as_str())
        .flat_map(commands)
        .collect()
}

#[test]
fn recipes_parse_and_their_ptxguard_commands_parse_with_the_cli() {
    let markdown = doc();
    let yaml = blocks(&markdown, "yaml");
    assert!(yaml.len() >= 4, "{} YAML blocks", yaml.len());
    let mut all_commands = Vec::new();
    let mut workflows = Vec::new();
    for block in &yaml {
        let docs = YamlLoader::load_from_str(block)
            .unwrap_or_else(|e| panic!("YAML does not parse: {e}\n{block}"));
        assert_eq!(docs.len(), 1);
        let doc = &docs[0];
        if doc["jobs"].as_hash().is_some() {
            assert!(doc["name"].as_str().is_some());
            assert!(!doc["on"].is_badvalue(), "a workflow needs `on`");
            let steps = steps(doc);
            all_commands.extend(step_commands(&steps));
            workflows.push(doc.clone());
        } else {
            // A fragment: steps to add to a job.
            let steps: Vec<&Yaml> = doc.as_vec().expect("a list of steps").iter().collect();
            all_commands.extend(step_commands(&steps));
        }
    }
    for block in blocks(&markdown, "sh") {
        all_commands.extend(commands(&block));
    }
    let ptxguard: Vec<&Vec<String>> = all_commands.iter().filter(|c| c[0] == "ptxguard").collect();
    assert!(ptxguard.len() >= 5, "{ptxguard:?}");
    for words in &ptxguard {
        if let Err(e) = parse_ptxguard(words) {
            panic!("`{}` does not parse: {e}", words.join(" "));
        }
    }
    // Installs use Cargo.lock.
    for c in all_commands
        .iter()
        .filter(|c| c[..2] == ["cargo", "install"])
    {
        assert!(c.contains(&"--locked".to_string()), "{c:?}");
    }

    // Code scanning: the SARIF that ptxguard writes is the file upload-sarif uploads.
    let sarif = workflows
        .iter()
        .find(|w| {
            steps(w).iter().any(|s| {
                s["uses"]
                    .as_str()
                    .is_some_and(|u| u.starts_with("github/codeql-action/upload-sarif@"))
            })
        })
        .expect("a code scanning workflow");
    assert_eq!(
        sarif["permissions"]["security-events"].as_str(),
        Some("write")
    );
    let steps_ = steps(sarif);
    let upload = steps_
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.contains("upload-sarif"))
        })
        .unwrap();
    let file = upload["with"]["sarif_file"].as_str().unwrap();
    let run = steps_
        .iter()
        .filter_map(|s| s["run"].as_str())
        .find(|r| r.contains("ptxguard check"))
        .unwrap();
    assert!(run.trim_end().ends_with(&format!("> {file}")), "{run}");
    let check = commands(run)
        .into_iter()
        .find(|c| c[0] == "ptxguard")
        .unwrap();
    assert_eq!(output_format(&check), OutputFormat::Sarif);

    // reviewdog: ptxguard's rdjson piped into `reviewdog -f=rdjson`.
    let review = workflows
        .iter()
        .find(|w| step_commands(&steps(w)).iter().any(|c| c[0] == "reviewdog"))
        .expect("a reviewdog workflow");
    assert_eq!(
        review["permissions"]["pull-requests"].as_str(),
        Some("write")
    );
    let script = steps(review)
        .iter()
        .filter_map(|s| s["run"].as_str())
        .find(|r| r.contains("reviewdog"))
        .unwrap();
    let joined = script.replace("\\\n", " ");
    let (producer, consumer) = joined.split_once('|').expect("a pipe into reviewdog");
    let producer = commands(producer).remove(0);
    assert_eq!(output_format(&producer), OutputFormat::Rdjson);
    let consumer = commands(consumer).remove(0);
    assert_eq!(consumer[0], "reviewdog");
    assert!(consumer.contains(&"-f=rdjson".to_string()), "{consumer:?}");
    assert!(steps(review).iter().any(|s| s["uses"]
        .as_str()
        .is_some_and(|u| u.starts_with("reviewdog/action-setup@"))));
}

#[test]
fn the_command_check_rejects_what_the_cli_rejects() {
    // The checks above can fail: a misspelled flag or value does not parse.
    let bad = commands("ptxguard check --output-format rdjsn .\nptxguard check --taget sm_80 .");
    assert_eq!(bad.len(), 2);
    for words in bad {
        assert!(parse_ptxguard(&words).is_err(), "{words:?}");
    }
    assert_eq!(
        commands("ptxguard check \\\n  --output-format sarif . > out.sarif # c\nx | y"),
        vec![
            vec!["ptxguard", "check", "--output-format", "sarif", "."],
            vec!["x"],
            vec!["y"]
        ]
    );
}
