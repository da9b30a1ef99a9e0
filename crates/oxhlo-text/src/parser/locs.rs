//! Locations: `loc(...)` with file/line/column (and FileLineColRange `"f":1:2 to 3:4`), names, call sites,
//! fused locations, `unknown` and `#loc` aliases (which JAX defines after their uses, so forward references
//! become placeholders resolved after the whole file is read). An op keeps the location it was given; where
//! that location names no file position, the op's own position in the text is added so diagnostics can
//! still point at it.

use super::{PResult, Parser, LOC_FIXUP_TAG, MAX_DEPTH};
use crate::lexer::Tok;
use oxhlo_ir::{Location, Module, Op, Region};

/// Metadata tag of a location still waiting for alias resolution: `Fused { locs: [given, text_pos] }`.
const PENDING_TAG: &str = "\u{0}oxhlo.pending";

impl<'a> Parser<'a> {
    /// `loc(...)`; the current token is `loc`.
    pub fn parse_loc_keyword(&mut self) -> PResult<Location> {
        self.expect_kw("loc")?;
        self.expect(Tok::LParen, "'(' after 'loc'")?;
        let l = self.parse_loc_body()?;
        self.expect(Tok::RParen, "')' closing the location")?;
        Ok(l)
    }

    /// An optional trailing `loc(...)`.
    pub fn parse_opt_loc(&mut self) -> PResult<Option<Location>> {
        if self.is_kw("loc") && self.peek().kind == Tok::LParen {
            return Ok(Some(self.parse_loc_keyword()?));
        }
        Ok(None)
    }

    fn parse_loc_body(&mut self) -> PResult<Location> {
        self.enter()?;
        let r = self.parse_loc_body_inner();
        self.leave();
        r
    }

    fn parse_loc_body_inner(&mut self) -> PResult<Location> {
        let t = self.tok;
        match t.kind {
            Tok::BareId if t.text == "unknown" => {
                self.advance();
                Ok(Location::Unknown)
            }
            Tok::BareId if t.text == "callsite" => {
                self.advance();
                self.expect(Tok::LParen, "'(' after 'callsite'")?;
                let callee = self.parse_loc_body()?;
                self.expect_kw("at")?;
                let caller = self.parse_loc_body()?;
                self.expect(Tok::RParen, "')' closing the call site")?;
                Ok(Location::CallSite { callee: Box::new(callee), caller: Box::new(caller) })
            }
            Tok::BareId if t.text == "fused" => {
                self.advance();
                let mut metadata = None;
                if self.is(Tok::Less) {
                    let s = self.tok.pos;
                    let text = self.opaque_angle_body(s)?;
                    metadata = Some(text.get(1..text.len().saturating_sub(1)).unwrap_or("").to_string());
                }
                self.expect(Tok::LBracket, "'[' after 'fused'")?;
                let locs = self.comma_list(Tok::RBracket, "fused location", |p| p.parse_loc_body())?;
                Ok(Location::Fused { locs, metadata })
            }
            Tok::HashId => {
                self.advance();
                let name = t.text.get(1..).unwrap_or("");
                if let Some(l) = self.loc_aliases.get(name) {
                    return Ok(l.clone());
                }
                if self.attr_aliases.contains_key(name) {
                    return Err(self.err_at(t.pos, format!("'#{name}' is not a location alias")));
                }
                self.needs_loc_fixup = true;
                Ok(Location::Fused { locs: Vec::new(), metadata: Some(format!("{LOC_FIXUP_TAG}{name}")) })
            }
            Tok::Str => {
                let s = self.parse_string()?;
                if self.eat(Tok::Colon) {
                    let line = self.parse_u32()?;
                    let mut col = 0;
                    if self.eat(Tok::Colon) {
                        col = self.parse_u32()?;
                    }
                    let mut end = None;
                    if self.eat_kw("to") {
                        if self.eat(Tok::Colon) {
                            end = Some((line, self.parse_u32()?));
                        } else {
                            let el = self.parse_u32()?;
                            self.expect(Tok::Colon, "':' in the range end")?;
                            end = Some((el, self.parse_u32()?));
                        }
                    }
                    return Ok(Location::File { file: s, line, col, end });
                }
                if self.eat(Tok::LParen) {
                    let child = self.parse_loc_body()?;
                    self.expect(Tok::RParen, "')' closing the name location")?;
                    return Ok(Location::Name { name: s, child: Box::new(child) });
                }
                Ok(Location::Name { name: s, child: Box::new(Location::Unknown) })
            }
            _ => Err(self.expected("a location")),
        }
    }

    fn parse_u32(&mut self) -> PResult<u32> {
        let t = self.expect(Tok::Int, "a line or column number")?;
        t.text.parse::<u32>().map_err(|_| self.err_at(t.pos, "line or column number is too large"))
    }

    /// The location an op (or function) at byte offset `pos` gets, given its optional `loc(...)`.
    pub fn op_location(&self, given: Option<Location>, pos: usize) -> Location {
        match given {
            None => self.loc_at(pos),
            Some(g) if g.file_line_col().is_some() && !has_placeholder(&g, 0) => g,
            Some(g) if has_placeholder(&g, 0) => Location::Fused { locs: vec![g, self.loc_at(pos)], metadata: Some(PENDING_TAG.to_string()) },
            Some(g) => combine(g, self.loc_at(pos)),
        }
    }

    /// Resolves forward `#loc` references everywhere in the module.
    pub(crate) fn fixup_locations(&self, m: &mut Module) -> PResult<()> {
        fix(&mut m.loc, self)?;
        for op in &mut m.other_ops {
            fix_op(op, self)?;
        }
        for f in &mut m.funcs {
            fix(&mut f.loc, self)?;
            fix_region(&mut f.body, self)?;
        }
        Ok(())
    }

    fn resolve(&self, l: &Location, depth: u32, at: &Location) -> PResult<Location> {
        if depth > MAX_DEPTH {
            return Err(oxhlo_ir::Diagnostic::new(at.clone(), "location aliases refer to each other in a cycle"));
        }
        Ok(match l {
            Location::Fused { locs, metadata: Some(m) } if locs.is_empty() && m.starts_with(LOC_FIXUP_TAG) => {
                let name = &m[LOC_FIXUP_TAG.len()..];
                let target = self
                    .loc_aliases
                    .get(name)
                    .ok_or_else(|| oxhlo_ir::Diagnostic::new(at.clone(), format!("undefined location alias '#{name}'")))?;
                self.resolve(target, depth + 1, at)?
            }
            Location::Name { name, child } => Location::Name { name: name.clone(), child: Box::new(self.resolve(child, depth + 1, at)?) },
            Location::CallSite { callee, caller } => Location::CallSite {
                callee: Box::new(self.resolve(callee, depth + 1, at)?),
                caller: Box::new(self.resolve(caller, depth + 1, at)?),
            },
            Location::Fused { locs, metadata } => Location::Fused {
                locs: locs.iter().map(|x| self.resolve(x, depth + 1, at)).collect::<PResult<_>>()?,
                metadata: metadata.clone(),
            },
            other => other.clone(),
        })
    }
}

/// Keeps the given location when it names a file position; otherwise adds the text position.
fn combine(given: Location, text: Location) -> Location {
    if given.file_line_col().is_some() {
        return given;
    }
    match given {
        Location::Unknown => text,
        Location::Name { name, child } if *child == Location::Unknown => Location::Name { name, child: Box::new(text) },
        other => Location::Fused { locs: vec![other, text], metadata: None },
    }
}

fn has_placeholder(l: &Location, depth: u32) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match l {
        Location::Fused { locs, metadata } => {
            metadata.as_deref().is_some_and(|m| m.starts_with(LOC_FIXUP_TAG)) || locs.iter().any(|x| has_placeholder(x, depth + 1))
        }
        Location::Name { child, .. } => has_placeholder(child, depth + 1),
        Location::CallSite { callee, caller } => has_placeholder(callee, depth + 1) || has_placeholder(caller, depth + 1),
        _ => false,
    }
}

fn fix(l: &mut Location, p: &Parser<'_>) -> PResult<()> {
    if let Location::Fused { locs, metadata: Some(m) } = l {
        if m == PENDING_TAG && locs.len() == 2 {
            let text = locs[1].clone();
            let given = p.resolve(&locs[0], 0, &text)?;
            *l = combine(given, text);
        }
    }
    Ok(())
}

fn fix_op(op: &mut Op, p: &Parser<'_>) -> PResult<()> {
    fix(&mut op.loc, p)?;
    for r in &mut op.regions {
        fix_region(r, p)?;
    }
    Ok(())
}

fn fix_region(r: &mut Region, p: &Parser<'_>) -> PResult<()> {
    for b in &mut r.blocks {
        for op in &mut b.ops {
            fix_op(op, p)?;
        }
    }
    Ok(())
}
