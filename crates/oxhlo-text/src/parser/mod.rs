//! The parser's core: the token cursor, source positions and diagnostics, alias tables, the nesting-depth
//! guard, and the top level of a file (aliases, `module`, bare `func.func`s, file metadata). Types,
//! attributes, dense literals, locations, function bodies and ops live in the sibling modules.

pub mod attrs;
pub mod body;
pub mod dense;
pub mod func;
pub mod generic;
pub mod locs;
pub mod types;

use crate::lexer::{Lexer, Tok, Token};
use oxhlo_ir::{Attr, Diagnostic, Location, Module, Type};
use std::collections::HashMap;

/// Result of a parse step: the first error stops the parse.
pub type PResult<T> = Result<T, Diagnostic>;

/// Deepest nesting of regions, types or attributes accepted before reporting an error (keeps the
/// recursive-descent parser from overflowing the stack on hostile input).
pub const MAX_DEPTH: u32 = 200;

/// Marker carried in a placeholder location for a `#loc` alias used before its definition.
pub(crate) const LOC_FIXUP_TAG: &str = "\u{0}oxhlo.loc_alias:";

/// Parser state for one input text.
pub struct Parser<'a> {
    pub(crate) lex: Lexer<'a>,
    pub(crate) tok: Token<'a>,
    pub(crate) src: &'a str,
    pub(crate) file: String,
    first_line: u32,
    line_starts: Vec<usize>,
    pub(crate) attr_aliases: HashMap<&'a str, Attr>,
    pub(crate) type_aliases: HashMap<&'a str, Type>,
    pub(crate) loc_aliases: HashMap<&'a str, Location>,
    /// Blobs of `{-# dialect_resources: {builtin: {name: "0x..."}} #-}`.
    pub(crate) resources: HashMap<String, Vec<u8>>,
    pub(crate) depth: u32,
    /// True once a placeholder location for a forward `#loc` reference was created.
    pub(crate) needs_loc_fixup: bool,
    /// Location aliases read by the pre-scan, still to be passed over by the main parse.
    prescanned: std::collections::HashSet<&'a str>,
}

impl<'a> Parser<'a> {
    /// A parser over `src`, whose first line is line `first_line` of `file`.
    pub fn new(src: &'a str, file: &str, first_line: u32) -> Parser<'a> {
        let mut line_starts = vec![0];
        for (i, b) in src.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        let mut lex = Lexer::new(src);
        let tok = lex.next_token();
        Parser {
            lex,
            tok,
            src,
            file: file.to_string(),
            first_line,
            line_starts,
            attr_aliases: HashMap::new(),
            type_aliases: HashMap::new(),
            loc_aliases: HashMap::new(),
            resources: HashMap::new(),
            depth: 0,
            needs_loc_fixup: false,
            prescanned: std::collections::HashSet::new(),
        }
    }

    // ---- positions and diagnostics ----

    /// 1-based line and column of a byte offset (columns count bytes, as MLIR does).
    pub fn line_col(&self, pos: usize) -> (u32, u32) {
        let idx = match self.line_starts.binary_search(&pos) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts.get(idx).copied().unwrap_or(0);
        (self.first_line + idx as u32, (pos - start.min(pos)) as u32 + 1)
    }

    /// The file location of a byte offset.
    pub fn loc_at(&self, pos: usize) -> Location {
        let (line, col) = self.line_col(pos);
        Location::file(self.file.clone(), line, col)
    }

    /// A diagnostic at a byte offset.
    pub fn err_at(&self, pos: usize, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.loc_at(pos), msg)
    }

    /// A diagnostic at the current token.
    pub fn err(&self, msg: impl Into<String>) -> Diagnostic {
        if self.tok.kind == Tok::Error {
            return self.err_at(self.tok.pos, self.tok.text);
        }
        self.err_at(self.tok.pos, msg)
    }

    /// "expected X" at the current token, naming what was found.
    pub fn expected(&self, what: &str) -> Diagnostic {
        if self.tok.kind == Tok::Error {
            return self.err_at(self.tok.pos, self.tok.text);
        }
        let found = if self.tok.kind == Tok::Eof { "end of input".to_string() } else { format!("'{}'", self.tok.text) };
        self.err(format!("expected {what}, found {found}"))
    }

    // ---- token cursor ----

    pub fn advance(&mut self) {
        self.tok = self.lex.next_token();
    }

    /// The token after the current one, without consuming anything.
    pub fn peek(&self) -> Token<'a> {
        let mut l = self.lex.clone();
        l.next_token()
    }

    /// Repositions the lexer at byte offset `pos` and reads the token there.
    pub fn reset_to(&mut self, pos: usize) {
        self.lex.pos = pos;
        self.advance();
    }

    pub fn is(&self, k: Tok) -> bool {
        self.tok.kind == k
    }

    /// Is the current token the bare keyword `kw`?
    pub fn is_kw(&self, kw: &str) -> bool {
        self.tok.kind == Tok::BareId && self.tok.text == kw
    }

    /// Consumes a token of kind `k` if present.
    pub fn eat(&mut self, k: Tok) -> bool {
        if self.tok.kind == k {
            self.advance();
            true
        } else {
            false
        }
    }

    pub fn eat_kw(&mut self, kw: &str) -> bool {
        if self.is_kw(kw) {
            self.advance();
            true
        } else {
            false
        }
    }

    /// Consumes a token of kind `k` or reports "expected `what`".
    pub fn expect(&mut self, k: Tok, what: &str) -> PResult<Token<'a>> {
        if self.tok.kind == k {
            let t = self.tok;
            self.advance();
            Ok(t)
        } else {
            Err(self.expected(what))
        }
    }

    pub fn expect_kw(&mut self, kw: &str) -> PResult<()> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            Err(self.expected(&format!("'{kw}'")))
        }
    }

    /// Enters one nesting level (region, type, attribute); errors past [`MAX_DEPTH`].
    pub fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(format!("nesting is deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Parses `elem (, elem)*` up to and including `close`; the opening token was consumed already.
    pub fn comma_list<T>(&mut self, close: Tok, what: &str, mut f: impl FnMut(&mut Self) -> PResult<T>) -> PResult<Vec<T>> {
        let mut out = Vec::new();
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(f(self)?);
            if self.eat(Tok::Comma) {
                continue;
            }
            if self.eat(close) {
                return Ok(out);
            }
            return Err(self.expected(&format!("',' or the end of the {what}")));
        }
    }

    /// Parses an optionally negative integer literal as i64 (hex allowed).
    pub fn parse_i64(&mut self) -> PResult<i64> {
        let neg = self.eat(Tok::Minus);
        let t = self.expect(Tok::Int, "an integer")?;
        let mag = parse_uint(t.text).ok_or_else(|| self.err_at(t.pos, "integer literal is too large"))?;
        apply_sign(mag, neg).ok_or_else(|| self.err_at(t.pos, "integer literal is out of range for i64"))
    }

    /// `[1, 2, 3]` of integers.
    pub fn parse_i64_list(&mut self) -> PResult<Vec<i64>> {
        self.expect(Tok::LBracket, "'['")?;
        self.comma_list(Tok::RBracket, "list", |p| p.parse_i64())
    }

    /// `[a, b]` of `?`-or-integer dimension sizes.
    pub fn parse_dim_list(&mut self) -> PResult<Vec<i64>> {
        self.expect(Tok::LBracket, "'['")?;
        self.comma_list(Tok::RBracket, "list", |p| if p.eat(Tok::Question) { Ok(oxhlo_ir::DYN) } else { p.parse_i64() })
    }

    /// A string literal's decoded text.
    pub fn parse_string(&mut self) -> PResult<String> {
        let t = self.expect(Tok::Str, "a string literal")?;
        decode_string(t.text).map_err(|m| self.err_at(t.pos, m))
    }

    /// A symbol name `@foo` / `@"foo bar"` without the `@`.
    pub fn symbol_name(&self, t: Token<'a>) -> PResult<String> {
        let body = t.text.get(1..).unwrap_or("");
        if body.starts_with('"') {
            decode_string(body).map_err(|m| self.err_at(t.pos, m))
        } else {
            Ok(body.to_string())
        }
    }
}

/// Whether a location still holds a placeholder for an undefined alias.
fn has_pending(l: &Location) -> bool {
    match l {
        Location::Fused { locs, metadata } => {
            metadata.as_deref().is_some_and(|m| m.starts_with(LOC_FIXUP_TAG)) || locs.iter().any(has_pending)
        }
        Location::Name { child, .. } => has_pending(child),
        Location::CallSite { callee, caller } => has_pending(callee) || has_pending(caller),
        _ => false,
    }
}

/// Decodes a string literal token (with quotes) into a `String` (invalid UTF-8 is replaced).
pub fn decode_string(text: &str) -> Result<String, &'static str> {
    let bytes = crate::lexer::unescape(text)?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Parses the text of an integer token (decimal or `0x` hex) as u64.
pub fn parse_uint(text: &str) -> Option<u64> {
    if let Some(h) = text.strip_prefix("0x") {
        u64::from_str_radix(h, 16).ok()
    } else {
        text.parse::<u64>().ok()
    }
}

/// Applies a sign to a magnitude, checking the i64 range.
pub fn apply_sign(mag: u64, neg: bool) -> Option<i64> {
    if neg {
        if mag <= i64::MAX as u64 + 1 {
            Some((mag as i64).wrapping_neg())
        } else {
            None
        }
    } else {
        i64::try_from(mag).ok()
    }
}

/// Parses a whole text into a module.
pub fn parse_text(src: &str, file: &str, first_line: u32) -> PResult<Module> {
    let mut p = Parser::new(src, file, first_line);
    p.prescan_aliases();
    let mut module: Option<Module> = None;
    let mut bare = Module::default();
    let mut saw_bare = false;
    loop {
        match p.tok.kind {
            Tok::Eof => break,
            Tok::HashId => p.parse_attr_alias_def()?,
            Tok::BangId => p.parse_type_alias_def()?,
            Tok::MetaOpen => p.parse_file_metadata()?,
            Tok::BareId if p.tok.text == "module" || p.tok.text == "builtin.module" => {
                if module.is_some() || saw_bare {
                    return Err(p.err("expected a single top-level module"));
                }
                module = Some(p.parse_module_op()?);
            }
            Tok::Str if p.tok.text == "\"builtin.module\"" => {
                if module.is_some() || saw_bare {
                    return Err(p.err("expected a single top-level module"));
                }
                module = Some(p.parse_generic_module()?);
            }
            _ => {
                if module.is_some() {
                    return Err(p.err("expected a single top-level module"));
                }
                if !saw_bare {
                    bare.loc = p.loc_at(p.tok.pos);
                }
                saw_bare = true;
                p.parse_module_item(&mut bare)?;
            }
        }
    }
    if module.is_none() && !saw_bare {
        bare.loc = p.loc_at(0);
    }
    let mut m = module.unwrap_or(bare);
    if p.needs_loc_fixup {
        p.fixup_locations(&mut m)?;
    }
    if !p.resources.is_empty() {
        p.resolve_resources(&mut m);
    }
    Ok(m)
}

impl<'a> Parser<'a> {
    /// Reads the top-level `#loc` alias definitions ahead of the main parse (JAX writes them after the
    /// module that uses them), so ops get their resolved locations directly. Definitions that fail to
    /// parse here are left for the main parse to report.
    fn prescan_aliases(&mut self) {
        // Top-level definitions start a line: `#name = loc(`.
        let src = self.src;
        let b = src.as_bytes();
        let mut starts: Vec<usize> = Vec::new();
        if b.first() == Some(&b'#') {
            starts.push(0);
        }
        let mut i = 0;
        while let Some(off) = src.get(i..).and_then(|r| r.find("\n#")) {
            starts.push(i + off + 1);
            i += off + 2;
        }
        for start in starts {
            let mut l = Lexer::new(src);
            l.pos = start;
            let name_tok = l.next_token();
            let eq = l.next_token();
            let kw = l.next_token();
            let name = name_tok.text.get(1..).unwrap_or("");
            if name_tok.kind != Tok::HashId || eq.kind != Tok::Equal || kw.kind != Tok::BareId || kw.text != "loc" {
                continue;
            }
            if name.contains('.') || self.loc_aliases.contains_key(name) {
                continue;
            }
            let (saved_lex, saved_tok) = (self.lex.clone(), self.tok);
            self.lex = l;
            self.tok = kw;
            let pending = self.needs_loc_fixup;
            if let Ok(loc) = self.parse_loc_keyword() {
                if !has_pending(&loc) {
                    self.loc_aliases.insert(name, loc);
                    self.prescanned.insert(name);
                }
            }
            self.needs_loc_fixup = pending;
            self.depth = 0;
            self.lex = saved_lex;
            self.tok = saved_tok;
        }
    }

    /// `#name = attribute` (or `#loc1 = loc(...)`).
    fn parse_attr_alias_def(&mut self) -> PResult<()> {
        let t = self.tok;
        let name = t.text.get(1..).unwrap_or("");
        if name.contains('.') {
            return Err(self.err("expected an attribute alias definition '#name = ...'"));
        }
        self.advance();
        self.expect(Tok::Equal, "'=' in the attribute alias definition")?;
        if self.prescanned.remove(name) {
            // Read ahead of the main parse already; read it again to move past it.
            self.parse_loc_keyword()?;
            return Ok(());
        }
        if self.attr_aliases.contains_key(name) || self.loc_aliases.contains_key(name) {
            return Err(self.err_at(t.pos, format!("redefinition of attribute alias '#{name}'")));
        }
        if self.is_kw("loc") {
            let l = self.parse_loc_keyword()?;
            self.loc_aliases.insert(name, l);
        } else {
            let a = self.parse_attr()?;
            self.attr_aliases.insert(name, a);
        }
        Ok(())
    }

    /// `!name = type`.
    fn parse_type_alias_def(&mut self) -> PResult<()> {
        let t = self.tok;
        let name = t.text.get(1..).unwrap_or("");
        if name.contains('.') {
            return Err(self.err("expected a type alias definition '!name = type'"));
        }
        self.advance();
        self.expect(Tok::Equal, "'=' in the type alias definition")?;
        if self.type_aliases.contains_key(name) {
            return Err(self.err_at(t.pos, format!("redefinition of type alias '!{name}'")));
        }
        let ty = self.parse_type()?;
        self.type_aliases.insert(name, ty);
        Ok(())
    }

    /// `{-# dialect_resources: { builtin: { name: "0x..." } } #-}`: keeps the builtin blobs, skips the rest.
    fn parse_file_metadata(&mut self) -> PResult<()> {
        self.advance();
        loop {
            if self.eat(Tok::MetaClose) {
                return Ok(());
            }
            let key = self.expect(Tok::BareId, "a metadata section name")?;
            self.expect(Tok::Colon, "':'")?;
            self.expect(Tok::LBrace, "'{'")?;
            if key.text == "dialect_resources" {
                self.comma_list(Tok::RBrace, "resource dialects", |p| {
                    let d = p.expect(Tok::BareId, "a dialect name")?;
                    p.expect(Tok::Colon, "':'")?;
                    p.expect(Tok::LBrace, "'{'")?;
                    p.comma_list(Tok::RBrace, "resources", |p| {
                        let name = match p.tok.kind {
                            Tok::BareId => p.tok.text.to_string(),
                            Tok::Str => decode_string(p.tok.text).map_err(|m| p.err(m))?,
                            _ => return Err(p.expected("a resource name")),
                        };
                        p.advance();
                        p.expect(Tok::Colon, "':'")?;
                        let blob = p.expect(Tok::Str, "a resource blob string")?;
                        if d.text == "builtin" {
                            let bytes = decode_hex_string(blob.text).map_err(|m| p.err_at(blob.pos, m))?;
                            p.resources.insert(name, bytes);
                        }
                        Ok(())
                    })?;
                    Ok(())
                })?;
            } else {
                self.skip_balanced_until(Tok::RBrace)?;
            }
            self.eat(Tok::Comma);
        }
    }

    /// Skips tokens up to and including the `close` that balances an already consumed opener.
    pub(crate) fn skip_balanced_until(&mut self, close: Tok) -> PResult<()> {
        let mut stack = vec![close];
        while let Some(&want) = stack.last() {
            match self.tok.kind {
                Tok::Eof | Tok::Error => return Err(self.expected("a closing bracket")),
                Tok::LBrace => stack.push(Tok::RBrace),
                Tok::LParen => stack.push(Tok::RParen),
                Tok::LBracket => stack.push(Tok::RBracket),
                k if k == want => {
                    stack.pop();
                }
                Tok::RBrace | Tok::RParen | Tok::RBracket => return Err(self.err("unbalanced bracket")),
                _ => {}
            }
            if stack.len() as u32 > MAX_DEPTH {
                return Err(self.err("nesting is too deep"));
            }
            self.advance();
        }
        Ok(())
    }
}

/// Decodes `"0x0A1B..."` into bytes.
pub fn decode_hex_string(text: &str) -> Result<Vec<u8>, &'static str> {
    let inner = text.get(1..text.len().saturating_sub(1)).unwrap_or("");
    let hex = inner.strip_prefix("0x").ok_or("expected a hex string \"0x...\"")?;
    if hex.len() % 2 != 0 {
        return Err("hex string has an odd number of digits");
    }
    let b = hex.as_bytes();
    let mut out = Vec::with_capacity(b.len() / 2);
    for pair in b.chunks(2) {
        let hi = (pair[0] as char).to_digit(16).ok_or("invalid hex digit")?;
        let lo = (pair[1] as char).to_digit(16).ok_or("invalid hex digit")?;
        out.push((hi * 16 + lo) as u8);
    }
    Ok(out)
}
