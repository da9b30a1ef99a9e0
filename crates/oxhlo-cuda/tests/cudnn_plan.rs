//! The cuDNN convolution plans (`oxhlo_cuda::cudnn_plan`) against the reference interpreter, without a
//! GPU: each plan is carried out by a reference of cuDNN's documented semantics (cross-correlation
//! forward, backward data and backward filter over strided views with symmetric zero padding, packed
//! KCRS/KRSC filters) plus the plan's own copies and padding, and must give the interpreter's result
//! for the shared convolution cases (`oxhlo_progen::conv_case`) in f64 on random inputs. The forms JAX
//! emits must get the cuDNN call they are (forward, backward data, backward filter).

use oxhlo_cuda::cudnn_plan::{Copy, CudnnPlan, Form, View, ZeroPad};
use oxhlo_interp::{Data, RtValue, Tensor};
use oxhlo_ir::Type;
use oxhlo_progen::conv_case::{cases, ConvCase};

/// Every index tuple of `dims`, row-major.
fn each(dims: &[i64], mut f: impl FnMut(&[i64])) {
    if dims.iter().any(|&d| d <= 0) {
        return;
    }
    let mut idx = vec![0i64; dims.len()];
    loop {
        f(&idx);
        let mut k = dims.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < dims[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

fn row_major(shape: &[i64]) -> Vec<i64> {
    let mut st = vec![1i64; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        st[d] = st[d + 1] * shape[d + 1];
    }
    st
}

fn copy(src: &[f64], c: &Copy) -> Vec<f64> {
    let mut out = Vec::new();
    each(&c.shape, |i| out.push(src[(c.base + i.iter().zip(&c.strides).map(|(a, b)| a * b).sum::<i64>()) as usize]));
    out
}

fn zero_pad(src: &[f64], p: &ZeroPad) -> Vec<f64> {
    let st = row_major(&p.in_shape);
    let mut out = Vec::new();
    each(&p.out_shape, |i| {
        let mut at = 0;
        for d in 0..i.len() {
            let t = i[d] - p.low[d];
            if t < 0 || t >= p.in_shape[d] {
                out.push(0.0);
                return;
            }
            at += t * st[d];
        }
        out.push(src[at as usize]);
    });
    out
}

/// Element `idx` (`[N, C, spatial...]`) of a view, zero outside its dims.
fn at(buf: &[f64], v: &View, idx: &[i64]) -> f64 {
    if idx.iter().zip(&v.dims).any(|(&i, &d)| i < 0 || i >= d) {
        return 0.0;
    }
    buf[(v.offset + idx.iter().zip(&v.strides).map(|(a, b)| a * b).sum::<i64>()) as usize]
}

fn pos(v: &View, idx: &[i64]) -> usize {
    (v.offset + idx.iter().zip(&v.strides).map(|(a, b)| a * b).sum::<i64>()) as usize
}

/// Offset of filter element `[k, c, taps...]` in the packed filter.
fn filter_pos(plan: &CudnnPlan, idx: &[i64]) -> usize {
    let n = plan.filter.len();
    let order: Vec<usize> = if plan.nhwc { std::iter::once(0).chain(2..n).chain(std::iter::once(1)).collect() } else { (0..n).collect() };
    let stored: Vec<i64> = order.iter().map(|&p| plan.filter[p]).collect();
    let st = row_major(&stored);
    order.iter().enumerate().map(|(i, &p)| idx[p] * st[i]).sum::<i64>() as usize
}

/// Carries out `plan` as cuDNN defines its calls.
fn emulate(plan: &CudnnPlan, lhs: &[f64], rhs: &[f64], out_len: usize) -> Vec<f64> {
    let sp = plan.filter.len() - 2;
    let x_in = match (&plan.pad, &plan.x_from_lhs) {
        (Some(p), _) => zero_pad(lhs, p),
        (None, Some(c)) => copy(lhs, c),
        (None, None) => lhs.to_vec(),
    };
    let w_in = match &plan.filter_from_rhs {
        Some(c) => copy(rhs, c),
        None => rhs.to_vec(),
    };
    let (q, s, d) = (&plan.pads, &plan.strides, &plan.dilations);
    let taps = &plan.filter[2..];
    match plan.form {
        Form::Forward => {
            let mut y = vec![f64::NAN; plan.ext.as_ref().map_or(out_len, |e| e.0)];
            let (kk, cg) = (plan.filter[0], plan.filter[1]);
            let per_group = kk / plan.groups;
            each(&plan.y.dims, |yi| {
                let (n, k) = (yi[0], yi[1]);
                let g = k / per_group;
                let mut acc = 0.0;
                each(&[&[cg][..], taps].concat(), |ci| {
                    let mut xi = vec![n, g * cg + ci[0]];
                    xi.extend((0..sp).map(|j| yi[2 + j] * s[j] + ci[1 + j] * d[j] - q[j]));
                    let mut wi = vec![k, ci[0]];
                    wi.extend_from_slice(&ci[1..]);
                    acc += at(&x_in, &plan.x, &xi) * w_in[filter_pos(plan, &wi)];
                });
                y[pos(&plan.y, yi)] = acc;
            });
            match &plan.ext {
                Some((_, c)) => copy(&y, c),
                None => y,
            }
        }
        Form::BackwardData => {
            let len = plan.ext.as_ref().map_or(out_len, |e| e.0);
            let mut dx = vec![f64::NAN; len];
            let kk = plan.filter[0];
            each(&plan.x.dims, |xi| {
                let (n, c) = (xi[0], xi[1]);
                let mut acc = 0.0;
                each(&[&[kk][..], taps].concat(), |ki| {
                    let mut yi = vec![n, ki[0]];
                    for j in 0..sp {
                        let t = xi[2 + j] + q[j] - ki[1 + j] * d[j];
                        if t < 0 || t % s[j] != 0 {
                            return;
                        }
                        yi.push(t / s[j]);
                    }
                    let mut wi = vec![ki[0], c];
                    wi.extend_from_slice(&ki[1..]);
                    acc += at(lhs, &plan.y, &yi) * w_in[filter_pos(plan, &wi)];
                });
                dx[pos(&plan.x, xi)] = acc;
            });
            match &plan.ext {
                Some((_, c)) => copy(&dx, c),
                None => dx,
            }
        }
        Form::BackwardFilter => {
            let mut dw = vec![f64::NAN; plan.filter_len()];
            let n_all = plan.x.dims[0];
            each(&plan.filter, |wi| {
                let (k, c) = (wi[0], wi[1]);
                let mut acc = 0.0;
                each(&[&[n_all][..], &plan.y.dims[2..]].concat(), |ni| {
                    let mut xi = vec![ni[0], c];
                    xi.extend((0..sp).map(|j| ni[1 + j] * s[j] + wi[2 + j] * d[j] - q[j]));
                    let mut yi = vec![ni[0], k];
                    yi.extend_from_slice(&ni[1..]);
                    acc += at(&x_in, &plan.x, &xi) * at(rhs, &plan.y, &yi);
                });
                dw[filter_pos(plan, wi)] = acc;
            });
            match &plan.result_from_filter {
                Some(c) => copy(&dw, c),
                None => dw,
            }
        }
    }
}


/// The plan of the case's convolution, checked against the interpreter when there is one.
fn check(case: &ConvCase, seed: u64) -> Option<Form> {
    let src = case.text("f64");
    let module = oxhlo_text::parse_module(&src, "case.mlir").unwrap_or_else(|e| panic!("parse: {e:?}\n{src}"));
    oxhlo_ir::verify_module(&module).unwrap_or_else(|e| panic!("verify: {e:?}\n{src}"));
    let func = module.entry().expect("entry");
    let op = &func.body.blocks[0].ops[0];
    let shape = |v| match func.ty(v) {
        Type::Tensor(t) => t.shape.clone(),
        _ => panic!("tensor"),
    };
    let (ls, rs, os) = (shape(op.operands[0]), shape(op.operands[1]), shape(op.results[0]));
    let plan = CudnnPlan::new(op, &ls, &rs, &os)?;
    let mut rng = oxhlo_progen::Rng::new(seed);
    let mut data = Vec::new();
    let mut inputs = Vec::new();
    for &a in &func.body.blocks[0].args {
        let Type::Tensor(ty) = func.ty(a).clone() else { panic!("tensor args only") };
        let v: Vec<f64> = (0..ty.shape.iter().product::<i64>()).map(|_| rng.signed_unit()).collect();
        data.push(v.clone());
        inputs.push(RtValue::Tensor(Tensor { ty, data: Data::Float(v) }));
    }
    let want = oxhlo_interp::run_main(&module, inputs).unwrap_or_else(|e| panic!("interpreter: {e}\n{src}"));
    let RtValue::Tensor(Tensor { data: Data::Float(want), .. }) = &want[0] else { panic!("float result") };
    let got = emulate(&plan, &data[0], &data[1], want.len());
    assert_eq!(got.len(), want.len(), "{plan:?}\n{src}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 1e-9 * (1.0 + w.abs()), "element {i}: got {g}, want {w}\n{plan:?}\n{src}");
    }
    Some(plan.form)
}

#[test]
fn cudnn_plans_compute_the_interpreters_convolutions() {
    let mut planned = 0;
    let all = cases();
    for (i, c) in all.iter().enumerate() {
        if check(c, 7000 + i as u64).is_some() {
            planned += 1;
        }
    }
    // Everything has a plan but batch groups (2 cases), a grouped input gradient, an empty result and
    // two lhs-dilated convolutions with window strides (no cuDNN call computes those).
    assert!(planned + 6 >= all.len(), "only {planned} of {} cases planned", all.len());
}

#[test]
fn jax_forms_get_their_cudnn_call() {
    // NHWC/HWIO forward, SAME, stride 1 and 2 (asymmetric padding (0, 1): a zero-padded copy).
    let mut c = ConvCase::new("b01f", "01io", "b01f", 2, 8, 16, &[8, 8], &[3, 3]);
    c.pad = vec![(1, 1), (1, 1)];
    assert_eq!(check(&c, 1), Some(Form::Forward));
    c.stride = vec![2, 2];
    c.pad = vec![(0, 1), (0, 1)];
    assert_eq!(check(&c, 2), Some(Form::Forward));
    // Its weight gradient: [f,0,1,b]x[i,0,1,o]->[0,1,b,f] with the forward stride as rhs dilation.
    let mut c = ConvCase::new("f01b", "i01o", "01bf", 2, 8, 16, &[8, 8], &[4, 4]);
    c.rhs_dil = vec![2, 2];
    c.pad = vec![(0, 1), (0, 1)];
    assert_eq!(check(&c, 3), Some(Form::BackwardFilter));
    let mut c = ConvCase::new("f01b", "i01o", "01bf", 2, 8, 16, &[8, 8], &[8, 8]);
    c.pad = vec![(1, 1), (1, 1)];
    assert_eq!(check(&c, 4), Some(Form::BackwardFilter));
    // Its input gradient: [b,0,1,f]x[0,1,o,i]->[b,0,1,f] with the forward stride as lhs dilation.
    let mut c = ConvCase::new("b01f", "01oi", "b01f", 2, 16, 8, &[4, 4], &[3, 3]);
    c.lhs_dil = vec![2, 2];
    c.pad = vec![(2, 2), (2, 2)];
    assert_eq!(check(&c, 5), Some(Form::BackwardData));
    let mut c = ConvCase::new("b01f", "01oi", "b01f", 2, 16, 8, &[4, 4], &[3, 3]);
    c.lhs_dil = vec![2, 2];
    c.pad = vec![(2, 1), (2, 1)];
    assert_eq!(check(&c, 6), Some(Form::BackwardData));
    let mut c = ConvCase::new("b01f", "01oi", "b01f", 2, 16, 8, &[8, 8], &[3, 3]);
    c.pad = vec![(1, 1), (1, 1)];
    assert_eq!(check(&c, 7), Some(Form::Forward));
    // NCHW/OIHW (the conv3x3 benchmark's form) and a grouped forward.
    let mut c = ConvCase::new("bf01", "oi01", "bf01", 2, 6, 4, &[7, 7], &[3, 3]);
    c.pad = vec![(1, 1), (1, 1)];
    assert_eq!(check(&c, 8), Some(Form::Forward));
    c.fgc = 2;
    assert_eq!(check(&c, 9), Some(Form::Forward));
    // Channels a multiple of 4: x and y go through packed NHWC copies (`x_from_lhs`, `ext`), with a
    // stride too; a view starting inside the lhs (a negative low padding) is copied from its offset.
    let mut c = ConvCase::new("bf01", "oi01", "bf01", 2, 8, 12, &[7, 7], &[3, 3]);
    c.pad = vec![(1, 1), (1, 1)];
    assert_eq!(check(&c, 10), Some(Form::Forward));
    assert_eq!(nhwc_copies(&c), (true, 2), "both copies are tiled transposes");
    c.stride = vec![2, 1];
    assert_eq!(check(&c, 11), Some(Form::Forward));
    assert_eq!(nhwc_copies(&c), (true, 2));
    c.pad = vec![(-1, -1), (0, 0)];
    c.stride = vec![1, 1];
    assert_eq!(check(&c, 12), Some(Form::Forward));
    assert_eq!(nhwc_copies(&c), (true, 1), "x starts inside the lhs: a strided copy");
}

/// Whether a case's plan runs on packed NHWC copies of x and y, and how many of those copies are
/// batched transposes.
fn nhwc_copies(case: &ConvCase) -> (bool, usize) {
    let src = case.text("f64");
    let module = oxhlo_text::parse_module(&src, "case.mlir").expect("parses");
    let func = module.entry().expect("entry");
    let op = &func.body.blocks[0].ops[0];
    let shape = |v| match func.ty(v) {
        Type::Tensor(t) => t.shape.clone(),
        _ => panic!("tensor"),
    };
    let plan = CudnnPlan::new(op, &shape(op.operands[0]), &shape(op.operands[1]), &shape(op.results[0])).expect("planned");
    // Copies that are batched transposes (run as the tiled kernel) move what the copy says.
    let mut transposes = 0;
    for c in [plan.x_from_lhs.clone(), plan.ext.as_ref().map(|e| e.1.clone())].into_iter().flatten() {
        if let Some((b, r, s)) = oxhlo_cuda::cudnn_plan::batched_transpose(&c) {
            let input: Vec<f64> = (0..b * r * s).map(|i| i as f64).collect();
            let tiled: Vec<f64> = (0..b * r * s).map(|o| {
                let (bb, rest) = (o / (r * s), o % (r * s));
                let (j, i) = (rest / r, rest % r);
                input[(bb * r * s + i * s + j) as usize]
            }).collect();
            assert_eq!(copy(&input, &c), tiled, "{c:?}");
            transposes += 1;
        }
    }
    (plan.nhwc && plan.x_from_lhs.is_some() && plan.ext.is_some(), transposes)
}
