//! Sorts by one key per element ([`oxhlo_opt::sort_key`]: every comparator of JAX's `jnp.sort`,
//! `jnp.argsort` and one-key `lax.sort`) with each slot one 64-bit integer: the key's order-preserving
//! 32 bits, computed once per element from the comparator's own expression (`oxs_key`), above the
//! element's position. A compare-and-swap is then one integer comparison instead of two comparator
//! calls and a tie-break, ties keep position order (the stable order the other networks give), and the
//! sorted positions gather every operand ([`crate::sort_registers::small_packed`]).
//!
//! Keys that pack: f32 under `TOTALORDER` (`oxh_tok`'s bits), integers and booleans of up to 32 bits
//! under their signed or unsigned order; `LT` sorts ascending, `GT` descending. Rows the register
//! networks take, a block a row or in chunks (`crate::sort::registers_form` of 64-bit slots);
//! `OXHLO_CUDA_SORT_PACKED=0` turns it off.

use crate::render::{is_int, is_unsigned, kind_of, load};
use crate::sort::SortPlan;
use oxhlo_cpu::Kind;
use oxhlo_ir::attr::ComparisonType;
use oxhlo_ir::{Func, Op};

/// The packed plan of sort `op` over `rows` rows of `n` elements `inner` apart, signature `params`
/// (rows, the inputs, the outputs), or None where its comparator is not one packable key or the
/// register networks do not take rows of `n` 64-bit slots ([`crate::sort::registers_form`]).
#[allow(clippy::too_many_arguments)]
pub fn plan(func: &Func, op: &Op, kinds: &[Kind], params: &[String], rows: i64, n: i64, inner: i64) -> Option<SortPlan> {
    let (helper, key) = key(func, op, kinds, n)?;
    Some(match crate::sort::registers_form(&[Kind::U64], n)? {
        0 => SortPlan { src: crate::sort_registers::small_packed(&helper, params, kinds.len(), n, inner, &key), rows, n, large: false, chunk: 0 },
        c => {
            // Merged chunks may be smaller than the network's (more blocks at once, more merge passes).
            let c = if crate::sort_merge::enabled() { crate::sort_merge::chunk(c) } else { c };
            SortPlan { src: crate::sort_registers::large_packed(&helper, params, kinds.len(), n, inner, &key, c), rows, n, large: true, chunk: c }
        }
    })
}

/// Whether sort `op` of rows of `n` elements of operands `kinds` takes [`plan`]'s packed form (whose
/// network sorts one [`Kind::U64`] a slot).
pub fn applies(func: &Func, op: &Op, kinds: &[Kind], n: i64) -> bool {
    key(func, op, kinds, n).is_some()
}

/// The key function `oxs_key` of sort `op` (rows of `n` elements of operands `kinds`) and the call of it on
/// the element at index `ix` of its key operand, or None where the packed form does not apply.
fn key(func: &Func, op: &Op, kinds: &[Kind], n: i64) -> Option<(String, String)> {
    if crate::env_off("OXHLO_CUDA_SORT_PACKED") || n >= u32::MAX as i64 || crate::sort::registers_form(&[Kind::U64], n).is_none() {
        return None;
    }
    let block = op.regions.first()?.blocks.first()?;
    let order = oxhlo_opt::sort_key::key_order(block)?;
    let arg_kinds: Vec<Kind> = kinds.iter().flat_map(|&k| [k, k]).collect();
    let (key_params, body) = crate::region::region_body(func, block, &arg_kinds)?;
    let (reg, kk) = body.regs.get(&order.key)?;
    if kind_of(func, order.compare.operands[0])?.0 != *kk {
        return None;
    }
    let bits = match (*kk, order.compare_type) {
        (Kind::F32, Some(ComparisonType::TotalOrder)) => format!("(unsigned)oxh_tok({reg}) ^ 0x80000000u"),
        (k, None | Some(ComparisonType::Signed)) if is_int(k) && !is_unsigned(k) && k.size() <= 4 => format!("(unsigned)(int)({reg}) ^ 0x80000000u"),
        (k, None | Some(ComparisonType::Unsigned)) if (is_unsigned(k) && k.size() <= 4) || k == Kind::Bool => format!("(unsigned)({reg})"),
        _ => return None,
    };
    let bits = if order.descending { format!("~({bits})") } else { bits };
    let helper = format!("// The order-preserving key of an element (the comparator's lhs side).\n__device__ __forceinline__ unsigned oxs_key({}) {{\n{}    return {bits};\n}}\n", key_params.join(", "), body.body);
    let t = 2 * order.operand;
    let args: Vec<String> = (0..arg_kinds.len()).map(|a| if a == t { load(kinds[order.operand], &format!("in{}", order.operand), "ix") } else { "0".to_string() }).collect();
    Some((helper, format!("oxs_key({})", args.join(", "))))
}
