//! Convolution test cases: one [`ConvCase`] renders a single-op `@main` in MLIR text for any layouts
//! (as JAX prints them: `b`, `f`, `i`, `o`, spatial digits), strides, padding, dilations, reversal and
//! group counts; [`cases`] is the table the backends' convolution tests share (the forms JAX emits for
//! forward passes and both gradients, and the edge cases: groups, reversal, negative padding, odd
//! layouts, 1-D/3-D, empty results, sizes that split work).

// Case tables: positional constructors read best here.
#![allow(clippy::too_many_arguments)]

/// `tensor<AxBx..xE>` for a shape and element type.
pub fn tensor_type(shape: &[i64], e: &str) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    if dims.is_empty() {
        format!("tensor<{e}>")
    } else {
        format!("tensor<{}x{e}>", dims.join("x"))
    }
}

/// One convolution case: layouts as JAX prints them (`b`, `f`, `i`, `o`, spatial digits).
pub struct ConvCase {
    pub lhs: &'static str,
    pub rhs: &'static str,
    pub out: &'static str,
    /// Conv batch, input features, output features.
    pub n: i64,
    pub c: i64,
    pub co: i64,
    pub input: Vec<i64>,
    pub kernel: Vec<i64>,
    pub stride: Vec<i64>,
    pub pad: Vec<(i64, i64)>,
    pub lhs_dil: Vec<i64>,
    pub rhs_dil: Vec<i64>,
    pub reverse: Vec<bool>,
    pub fgc: i64,
    pub bgc: i64,
}

impl ConvCase {
    pub fn new(lhs: &'static str, rhs: &'static str, out: &'static str, n: i64, c: i64, co: i64, input: &[i64], kernel: &[i64]) -> ConvCase {
        let s = input.len();
        ConvCase {
            lhs,
            rhs,
            out,
            n,
            c,
            co,
            input: input.to_vec(),
            kernel: kernel.to_vec(),
            stride: vec![1; s],
            pad: vec![(0, 0); s],
            lhs_dil: vec![1; s],
            rhs_dil: vec![1; s],
            reverse: vec![false; s],
            fgc: 1,
            bgc: 1,
        }
    }

    /// The case as a one-op `@main` over element type `e`.
    pub fn text(&self, e: &str) -> String {
        let s = self.input.len();
        let out_sp: Vec<i64> = (0..s)
            .map(|d| {
                let din = (self.input[d] - 1) * self.lhs_dil[d] + 1 + self.pad[d].0 + self.pad[d].1;
                let dk = (self.kernel[d] - 1) * self.rhs_dil[d] + 1;
                if din < dk {
                    0
                } else {
                    (din - dk) / self.stride[d] + 1
                }
            })
            .collect();
        let shape = |layout: &str, b: i64, f: i64, sp: &[i64]| -> Vec<i64> {
            layout
                .chars()
                .map(|ch| match ch {
                    'b' => b,
                    'f' | 'o' => f,
                    'i' => self.c / self.fgc,
                    d => sp[d.to_digit(10).unwrap() as usize],
                })
                .collect()
        };
        let ls = shape(self.lhs, self.n, self.c, &self.input);
        let rs = shape(self.rhs, 0, self.co, &self.kernel);
        let os = shape(self.out, self.n / self.bgc, self.co, &out_sp);
        let dn = |l: &str| format!("[{}]", l.chars().map(|c| c.to_string()).collect::<Vec<_>>().join(", "));
        let list = |v: &[i64]| v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
        let pad = self.pad.iter().map(|(a, b)| format!("[{a}, {b}]")).collect::<Vec<_>>().join(", ");
        let rev = self.reverse.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ");
        format!(
            "func.func @main(%a: {lt}, %b: {rt}) -> {ot} {{\n  %0 = stablehlo.convolution(%a, %b) dim_numbers = {}x{}->{}, window = {{stride = [{}], pad = [{pad}], lhs_dilate = [{}], rhs_dilate = [{}], reverse = [{rev}]}} {{batch_group_count = {} : i64, feature_group_count = {} : i64}} : ({lt}, {rt}) -> {ot}\n  return %0 : {ot}\n}}",
            dn(self.lhs),
            dn(self.rhs),
            dn(self.out),
            list(&self.stride),
            list(&self.lhs_dil),
            list(&self.rhs_dil),
            self.bgc,
            self.fgc,
            lt = tensor_type(&ls, e),
            rt = tensor_type(&rs, e),
            ot = tensor_type(&os, e),
        )
    }
}


/// The shared table of cases.
pub fn cases() -> Vec<ConvCase> {
    let mut cases = Vec::new();
    // JAX NHWC/HWIO forward: SAME stride 1, SAME stride 2, 1x1 stride 2, 1x1 stride 1.
    let mut c = ConvCase::new("b01f", "01io", "b01f", 2, 8, 16, &[8, 8], &[3, 3]);
    c.pad = vec![(1, 1), (1, 1)];
    cases.push(c);
    let mut c = ConvCase::new("b01f", "01io", "b01f", 2, 8, 16, &[8, 8], &[3, 3]);
    c.stride = vec![2, 2];
    c.pad = vec![(0, 1), (0, 1)];
    cases.push(c);
    let mut c = ConvCase::new("b01f", "01io", "b01f", 2, 8, 16, &[8, 8], &[1, 1]);
    c.stride = vec![2, 2];
    cases.push(c);
    cases.push(ConvCase::new("b01f", "01io", "b01f", 2, 8, 16, &[8, 8], &[1, 1]));
    // JAX weight gradients: [f,0,1,b]x[i,0,1,o]->[0,1,b,f] (x as lhs with N as feature, dy as kernel).
    let mut c = ConvCase::new("f01b", "i01o", "01bf", 8, 2, 16, &[8, 8], &[8, 8]);
    c.pad = vec![(1, 1), (1, 1)];
    cases.push(c);
    let mut c = ConvCase::new("f01b", "i01o", "01bf", 8, 2, 16, &[8, 8], &[4, 4]);
    c.pad = vec![(0, 1), (0, 1)];
    c.rhs_dil = vec![2, 2];
    cases.push(c);
    let mut c = ConvCase::new("f01b", "i01o", "01bf", 8, 2, 16, &[8, 8], &[4, 4]);
    c.pad = vec![(0, -1), (0, -1)];
    c.rhs_dil = vec![2, 2];
    cases.push(c);
    // JAX input gradients: [b,0,1,f]x[0,1,o,i]->[b,0,1,f], lhs dilation for strided forwards.
    let mut c = ConvCase::new("b01f", "01oi", "b01f", 2, 16, 8, &[8, 8], &[3, 3]);
    c.pad = vec![(1, 1), (1, 1)];
    cases.push(c);
    let mut c = ConvCase::new("b01f", "01oi", "b01f", 2, 16, 8, &[4, 4], &[3, 3]);
    c.pad = vec![(2, 1), (2, 1)];
    c.lhs_dil = vec![2, 2];
    cases.push(c);
    let mut c = ConvCase::new("b01f", "01oi", "b01f", 2, 16, 8, &[4, 4], &[1, 1]);
    c.pad = vec![(0, 1), (0, 1)];
    c.lhs_dil = vec![2, 2];
    cases.push(c);
    let mut c = ConvCase::new("b0f", "0io", "b0f", 2, 3, 4, &[7], &[4]);
    c.lhs_dil = vec![3];
    c.stride = vec![2];
    c.rhs_dil = vec![2];
    c.pad = vec![(-1, 3)];
    c.reverse = vec![true];
    cases.push(c);
    let mut c = ConvCase::new("bf01", "oi01", "bf01", 2, 6, 4, &[5, 4], &[3, 3]);
    c.lhs_dil = vec![2, 3];
    c.pad = vec![(2, 2), (1, 2)];
    c.fgc = 2;
    cases.push(c);
    // NCHW/OIHW, padded, and pointwise.
    let mut c = ConvCase::new("bf01", "oi01", "bf01", 3, 5, 7, &[9, 6], &[3, 2]);
    c.pad = vec![(1, 1), (0, 2)];
    cases.push(c);
    cases.push(ConvCase::new("bf01", "oi01", "bf01", 3, 5, 7, &[4, 6], &[1, 1]));
    // Groups, reversal, rhs dilation, negative padding, odd layouts.
    let mut c = ConvCase::new("b01f", "01io", "b01f", 2, 8, 12, &[7, 7], &[3, 3]);
    c.fgc = 4;
    c.pad = vec![(1, 1), (1, 1)];
    cases.push(c);
    let mut c = ConvCase::new("f01b", "i01o", "01bf", 6, 3, 4, &[7, 7], &[3, 3]);
    c.bgc = 2;
    cases.push(c);
    let mut c = ConvCase::new("b01f", "01io", "b01f", 4, 3, 6, &[6, 6], &[3, 3]);
    c.bgc = 2;
    c.stride = vec![2, 1];
    cases.push(c);
    let mut c = ConvCase::new("0bf1", "o01i", "f1b0", 2, 3, 4, &[9, 8], &[3, 2]);
    c.reverse = vec![true, false];
    c.rhs_dil = vec![2, 3];
    c.pad = vec![(-1, 2), (3, -2)];
    c.stride = vec![1, 2];
    c.lhs_dil = vec![1, 2];
    cases.push(c);
    let mut c = ConvCase::new("b0f", "0io", "b0f", 3, 4, 5, &[11], &[3]);
    c.pad = vec![(2, 0)];
    c.reverse = vec![true];
    cases.push(c);
    let mut c = ConvCase::new("b012f", "012io", "b012f", 2, 3, 4, &[5, 4, 6], &[2, 3, 2]);
    c.pad = vec![(1, 0), (1, 1), (0, 1)];
    cases.push(c);
    // Empty output (kernel larger than the input).
    cases.push(ConvCase::new("b01f", "01io", "b01f", 2, 3, 4, &[2, 2], &[3, 3]));
    // Larger: several row blocks, and a weight gradient whose taps split into several chunks.
    let mut c = ConvCase::new("b01f", "01io", "b01f", 4, 16, 24, &[20, 20], &[3, 3]);
    c.pad = vec![(1, 1), (1, 1)];
    cases.push(c);
    cases.push(ConvCase::new("f01b", "i01o", "01bf", 4, 8, 4, &[24, 24], &[20, 20]));
    // Few output rows, many taps: the split-K path (taps x channels >= 4096).
    let mut c = ConvCase::new("f01b", "i01o", "01bf", 4, 8, 6, &[26, 26], &[24, 24]);
    c.pad = vec![(1, 1), (1, 0)];
    cases.push(c);
    cases
}
