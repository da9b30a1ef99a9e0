//! Minimal argument handling shared by the subcommands: flags, options with values, positional files,
//! and reading a file or stdin (`-`).

use std::io::Read;

/// Parsed arguments of one subcommand.
#[derive(Debug, Default)]
pub struct Args {
    pub flags: Vec<String>,
    /// `--name value` pairs (repeatable).
    pub options: Vec<(String, String)>,
    pub positional: Vec<String>,
}

impl Args {
    /// Splits `argv` given the flag names (no value) and option names (take a value) a command accepts.
    pub fn parse(argv: &[String], flags: &[&str], options: &[&str]) -> Result<Args, String> {
        let mut out = Args::default();
        let mut i = 0;
        while i < argv.len() {
            let a = &argv[i];
            if let Some(name) = a.strip_prefix("--") {
                let (name, inline) = match name.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (name, None),
                };
                if flags.contains(&name) {
                    out.flags.push(name.to_string());
                } else if options.contains(&name) {
                    let v = match inline {
                        Some(v) => v,
                        None => {
                            i += 1;
                            argv.get(i).cloned().ok_or_else(|| format!("--{name} needs a value"))?
                        }
                    };
                    out.options.push((name.to_string(), v));
                } else {
                    return Err(format!("unknown option --{name}"));
                }
            } else if a.starts_with('-') && a != "-" && a.len() == 2 && options.iter().any(|o| o.starts_with(&a[1..])) {
                return Err(format!("unknown option {a}"));
            } else {
                out.positional.push(a.clone());
            }
            i += 1;
        }
        Ok(out)
    }

    pub fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|f| f == name)
    }

    /// All values given for an option.
    pub fn values(&self, name: &str) -> Vec<&str> {
        self.options.iter().filter(|(n, _)| n == name).map(|(_, v)| v.as_str()).collect()
    }

    /// The last value given for an option.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values(name).last().copied()
    }

    /// Exactly one positional argument.
    pub fn one_file(&self) -> Result<&str, String> {
        match self.positional.as_slice() {
            [f] => Ok(f),
            [] => Err("missing input file (use - for stdin)".into()),
            _ => Err(format!("expected one input file, got {}", self.positional.len())),
        }
    }
}

/// Reads a file's bytes, or stdin for `-`; returns the name to use in diagnostics too.
pub fn read_input(path: &str) -> Result<(String, Vec<u8>), String> {
    if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map_err(|e| format!("reading stdin: {e}"))?;
        Ok(("<stdin>".into(), buf))
    } else {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        Ok((path.to_string(), bytes))
    }
}
