//! The chlo ops that are not plain elementwise kernels: the `chlo.broadcast_*` binary ops (numpy-style
//! broadcasting, or the explicit `broadcast_dimensions` attribute), `chlo.broadcast_compare`,
//! `chlo.constant_like`; and `stablehlo.map`, which runs its region once per element.

use super::compare::{compare_attrs, compare_data};
use super::elementwise::{arg, eval_binary, int_bits, mask, out, result_elem, scalar_at, sx, Bin};
use crate::ops::OpCtx;
use crate::tensor::{strides, Data, RtValue, Tensor};
use oxhlo_ir::{Attr, DenseElements, ElementType, TensorType};

/// A broadcast: result shape, and for each operand the result dimension of each of its dimensions.
type Broadcast = (Vec<i64>, Vec<usize>, Vec<usize>);

/// The broadcast result shape and, per operand, which result dimension each of its dimensions maps to.
fn broadcast_shapes(ctx: &OpCtx, a: &[i64], b: &[i64]) -> Result<Broadcast, String> {
    let rank = a.len().max(b.len());
    let explicit = ctx.op.attr("broadcast_dimensions").and_then(Attr::as_i64_list);
    let map_for = |s: &[i64]| -> Result<Vec<usize>, String> {
        match &explicit {
            Some(dims) if s.len() < rank => {
                if dims.len() != s.len() {
                    return Err(format!("broadcast_dimensions {dims:?} do not fit an operand of rank {}", s.len()));
                }
                dims.iter()
                    .map(|&d| usize::try_from(d).ok().filter(|&d| d < rank).ok_or(format!("broadcast dimension {d} out of range")))
                    .collect()
            }
            _ => Ok((rank - s.len()..rank).collect()),
        }
    };
    let (ma, mb) = (map_for(a)?, map_for(b)?);
    let mut shape = vec![1i64; rank];
    for (s, m) in [(a, &ma), (b, &mb)] {
        for (i, &d) in m.iter().enumerate() {
            let n = s[i];
            if shape[d] == 1 {
                shape[d] = n;
            } else if n != 1 && n != shape[d] {
                return Err(format!("shapes {a:?} and {b:?} are not broadcast-compatible"));
            }
        }
    }
    Ok((shape, ma, mb))
}

/// Broadcasts `t` into `shape`, operand dimension i going to result dimension `map[i]`.
pub(crate) fn broadcast_tensor(t: &Tensor, shape: &[i64], map: &[usize]) -> Result<Tensor, String> {
    if t.ty.shape == shape {
        return Ok(t.clone());
    }
    let n = TensorType::new(shape.to_vec(), t.ty.elem.clone()).num_elements().ok_or("bad broadcast shape")?;
    let src_strides = strides(&t.ty.shape);
    let mut st = vec![0usize; shape.len()];
    for (i, &d) in map.iter().enumerate() {
        if t.ty.shape[i] != 1 {
            st[d] = src_strides[i];
        }
    }
    let out_strides = strides(shape);
    let idx: Vec<usize> = (0..n)
        .map(|lin| {
            let mut rem = lin;
            let mut src = 0;
            for (d, &os) in out_strides.iter().enumerate() {
                let q = rem / os.max(1);
                rem -= q * os.max(1);
                src += q * st[d];
            }
            src
        })
        .collect();
    fn pick<T: Copy>(v: &[T], idx: &[usize]) -> Vec<T> {
        idx.iter().map(|&i| v[i]).collect()
    }
    let data = match &t.data {
        Data::Bool(v) => Data::Bool(pick(v, &idx)),
        Data::Int(v) => Data::Int(pick(v, &idx)),
        Data::UInt(v) => Data::UInt(pick(v, &idx)),
        Data::Float(v) => Data::Float(pick(v, &idx)),
        Data::Complex(v) => Data::Complex(pick(v, &idx)),
    };
    Ok(Tensor { ty: TensorType::new(shape.to_vec(), t.ty.elem.clone()), data })
}

fn broadcast_pair(ctx: &OpCtx, args: &[RtValue]) -> Result<(Tensor, Tensor), String> {
    let (a, b) = (arg(args, 0)?, arg(args, 1)?);
    let (shape, ma, mb) = broadcast_shapes(ctx, &a.ty.shape, &b.ty.shape)?;
    Ok((broadcast_tensor(a, &shape, &ma)?, broadcast_tensor(b, &shape, &mb)?))
}

/// A `chlo.broadcast_*` binary op.
pub fn eval_broadcast_binary(ctx: &mut OpCtx, args: &[RtValue], op: Bin) -> Result<Vec<RtValue>, String> {
    let (a, b) = broadcast_pair(ctx, args)?;
    eval_binary(ctx, &[RtValue::Tensor(a), RtValue::Tensor(b)], op)
}

/// `chlo.broadcast_compare`.
pub fn eval_broadcast_compare(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let (dir, ty) = compare_attrs(ctx)?;
    let (a, b) = broadcast_pair(ctx, args)?;
    let data = compare_data(dir, ty, &a.ty.elem, &a.data, &b.data)?;
    Ok(vec![out(&a.ty.shape, ElementType::Bool, data)])
}

/// `chlo.constant_like`: a tensor shaped like the operand, filled with the `value` attribute.
pub fn eval_constant_like(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let x = arg(args, 0)?;
    let elem = result_elem(ctx, 0)?;
    let n = x.len();
    let one = TensorType::new(vec![], elem.clone());
    let scalar = match ctx.op.attr("value") {
        Some(Attr::Dense(d)) => Tensor::from_dense(&DenseElements { ty: one, data: d.expanded().data, splat: false })
            .or_else(|_| Tensor::from_dense(d))?,
        Some(Attr::Float(v, _)) => {
            let d = match &elem {
                ElementType::Complex(_) => Data::Complex(vec![(*v, 0.0)]),
                _ => Data::Float(vec![*v]),
            };
            let conv = super::convert::convert_data(&d, &ElementType::F64, &elem)?;
            Tensor { ty: one, data: conv }
        }
        Some(Attr::Int(v, _)) => {
            let conv = super::convert::convert_data(&Data::Int(vec![*v]), &ElementType::I64, &elem)?;
            Tensor { ty: one, data: conv }
        }
        Some(Attr::Bool(b)) => Tensor { ty: one, data: Data::Bool(vec![*b]) },
        _ => return Err("constant_like needs a `value` attribute".into()),
    };
    if scalar.is_empty() {
        return Err("constant_like value is empty".into());
    }
    let data = super::compare::splat(&scalar.data, n);
    Ok(vec![out(&x.ty.shape, elem, data)])
}

/// `stablehlo.map`: applies the region to the elements at each index of the inputs.
pub fn eval_map(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let inputs: Vec<&Tensor> = (0..args.len()).map(|i| arg(args, i)).collect::<Result<_, _>>()?;
    let first = inputs.first().ok_or("map needs at least one input")?;
    let shape = first.ty.shape.clone();
    if inputs.iter().any(|t| t.ty.shape != shape) {
        return Err("map inputs must have one shape".into());
    }
    let region = ctx.op.regions.first().ok_or("map without a computation region")?;
    let elem = result_elem(ctx, 0)?;
    let n = first.len();
    let mut parts: Vec<Data> = Vec::with_capacity(n);
    for i in 0..n {
        let scalars: Vec<RtValue> = inputs
            .iter()
            .map(|t| RtValue::Tensor(scalar_at(t, i)))
            .collect();
        let r = ctx.regions.call_region(region, &scalars)?;
        match r.first() {
            Some(RtValue::Tensor(t)) if t.len() == 1 => parts.push(t.data.clone()),
            _ => return Err("map computation must return one 0-dimensional tensor".into()),
        }
    }
    let data = concat(&elem, parts)?;
    Ok(vec![out(&shape, elem, data)])
}

fn concat(elem: &ElementType, parts: Vec<Data>) -> Result<Data, String> {
    let empty = Tensor::zeros(TensorType::new(vec![0], elem.clone()))?.data;
    parts.into_iter().try_fold(empty, |mut acc, p| {
        match (&mut acc, p) {
            (Data::Bool(a), Data::Bool(b)) => a.extend(b),
            (Data::Int(a), Data::Int(b)) => a.extend(b),
            (Data::UInt(a), Data::UInt(b)) => a.extend(b),
            (Data::Float(a), Data::Float(b)) => a.extend(b),
            (Data::Complex(a), Data::Complex(b)) => a.extend(b),
            _ => return Err("map computation returned another element type than declared".to_string()),
        }
        Ok(acc)
    })
}

/// `chlo.mulhi`: the high `N` bits of the `2N`-bit product of two `N`-bit integers (signed operands
/// multiply as signed, unsigned as unsigned), e.g. `mulhi(64, 4) = 1` on i8 (64 * 4 = 0x0100).
pub fn eval_mulhi(_ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let (a, b) = (arg(args, 0)?, arg(args, 1)?);
    if a.ty != b.ty {
        return Err("chlo.mulhi: operands must have the same type".into());
    }
    let bits = int_bits(&a.ty.elem);
    let data = match (&a.data, &b.data) {
        (Data::Int(x), Data::Int(y)) => Data::Int(
            x.iter().zip(y).map(|(&p, &q)| sx(((i128::from(p) * i128::from(q)) >> bits) as i64, bits)).collect(),
        ),
        (Data::UInt(x), Data::UInt(y)) => Data::UInt(
            x.iter().zip(y).map(|(&p, &q)| mask(((u128::from(p) * u128::from(q)) >> bits) as u64, bits)).collect(),
        ),
        _ => return Err("chlo.mulhi needs integer operands".into()),
    };
    Ok(vec![out(&a.ty.shape, a.ty.elem.clone(), data)])
}
