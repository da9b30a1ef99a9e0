//! End-to-end: compile small StableHLO programs and check their results against values worked out by hand
//! (noted beside each), over the element types the API carries.

use oxhlo::{Backend, Buffer, Client, Complex, DType};

fn client() -> Client {
    Client::builder().backend(Backend::Interpreter).build().unwrap()
}

#[test]
fn add_2x2_f32() {
    let exe = client()
        .compile(
            "func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
               %0 = stablehlo.add %a, %b : tensor<2x2xf32>
               return %0 : tensor<2x2xf32>
             }",
        )
        .unwrap();
    let a = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
    let b = Buffer::from_slice(&[0.5f32, -2.0, 10.0, 0.25], &[2, 2]).unwrap();
    let out = exe.execute(&[&a, &b]).unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].shape(), &[2, 2]);
    assert_eq!(out[0].element_type(), DType::F32);
    assert_eq!(out[0].to_vec::<f32>().unwrap(), vec![1.5, 0.0, 13.0, 4.25]);
}

#[test]
fn matmul_and_several_results() {
    // [[1,2,3],[4,5,6]] x [[1,0],[0,1],[1,1]] = [[4,5],[10,11]]; the sum of the inputs' first rows is checked
    // through a second result.
    let exe = client()
        .compile(
            "func.func @main(%a: tensor<2x3xf64>, %b: tensor<3x2xf64>) -> (tensor<2x2xf64>, tensor<2x3xf64>) {
               %0 = stablehlo.dot %a, %b : (tensor<2x3xf64>, tensor<3x2xf64>) -> tensor<2x2xf64>
               %1 = stablehlo.negate %a : tensor<2x3xf64>
               return %0, %1 : tensor<2x2xf64>, tensor<2x3xf64>
             }",
        )
        .unwrap();
    let a = Buffer::from_slice(&[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
    let b = Buffer::from_slice(&[1.0f64, 0.0, 0.0, 1.0, 1.0, 1.0], &[3, 2]).unwrap();
    let out = exe.execute(&[&a, &b]).unwrap();
    assert_eq!(out[0].to_vec::<f64>().unwrap(), vec![4.0, 5.0, 10.0, 11.0]);
    assert_eq!(out[1].to_vec::<f64>().unwrap(), vec![-1.0, -2.0, -3.0, -4.0, -5.0, -6.0]);
    assert_eq!(out[1].shape(), &[2, 3]);
}

#[test]
fn integers_wrap_and_compare() {
    // i8: 100+100 = 200 wraps to -56; -128 + -128 wraps to 0. compare GT gives i1.
    let exe = client()
        .compile(
            "func.func @main(%a: tensor<3xi8>, %b: tensor<3xi8>) -> (tensor<3xi8>, tensor<3xi1>) {
               %0 = stablehlo.add %a, %b : tensor<3xi8>
               %1 = stablehlo.compare GT, %a, %b : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi1>
               return %0, %1 : tensor<3xi8>, tensor<3xi1>
             }",
        )
        .unwrap();
    let a = Buffer::from_slice(&[100i8, -128, 5], &[3]).unwrap();
    let b = Buffer::from_slice(&[100i8, -128, -7], &[3]).unwrap();
    let out = exe.execute(&[&a, &b]).unwrap();
    assert_eq!(out[0].to_vec::<i8>().unwrap(), vec![-56, 0, -2]);
    assert_eq!(out[1].to_vec::<bool>().unwrap(), vec![false, false, true]);
}

#[test]
fn unsigned_and_64_bit() {
    // ui64: max + 1 wraps to 0; ui16 65535 * 2 = 131070 mod 65536 = 65534; i64 multiply.
    let exe = client()
        .compile(
            "func.func @main(%a: tensor<2xui64>, %b: tensor<2xui16>, %c: tensor<2xi64>) -> (tensor<2xui64>, tensor<2xui16>, tensor<2xi64>) {
               %one = stablehlo.constant dense<1> : tensor<2xui64>
               %0 = stablehlo.add %a, %one : tensor<2xui64>
               %1 = stablehlo.add %b, %b : tensor<2xui16>
               %2 = stablehlo.multiply %c, %c : tensor<2xi64>
               return %0, %1, %2 : tensor<2xui64>, tensor<2xui16>, tensor<2xi64>
             }",
        )
        .unwrap();
    let a = Buffer::from_slice(&[u64::MAX, 41], &[2]).unwrap();
    let b = Buffer::from_slice(&[65535u16, 7], &[2]).unwrap();
    let c = Buffer::from_slice(&[-3_000_000_000i64, 12], &[2]).unwrap();
    let out = exe.execute(&[&a, &b, &c]).unwrap();
    assert_eq!(out[0].to_vec::<u64>().unwrap(), vec![0, 42]);
    assert_eq!(out[1].to_vec::<u16>().unwrap(), vec![65534, 14]);
    assert_eq!(out[2].to_vec::<i64>().unwrap(), vec![9_000_000_000_000_000_000, 144]);
}

#[test]
fn complex_multiply() {
    // (1+2i)(3-1i) = 3 - i + 6i - 2i^2 = 5 + 5i; (0+1i)(0+1i) = -1.
    let exe = client()
        .compile(
            "func.func @main(%a: tensor<2xcomplex<f64>>, %b: tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>> {
               %0 = stablehlo.multiply %a, %b : tensor<2xcomplex<f64>>
               return %0 : tensor<2xcomplex<f64>>
             }",
        )
        .unwrap();
    let a = Buffer::from_slice(&[Complex::new(1.0, 2.0), Complex::new(0.0, 1.0)], &[2]).unwrap();
    let b = Buffer::from_slice(&[Complex::new(3.0, -1.0), Complex::new(0.0, 1.0)], &[2]).unwrap();
    let out = exe.execute(&[&a, &b]).unwrap();
    assert_eq!(out[0].to_vec::<Complex<f64>>().unwrap(), vec![Complex::new(5.0, 5.0), Complex::new(-1.0, 0.0)]);
}

/// Adds a buffer to itself in a program over `ty`, on raw bytes.
fn double_bytes(ty: &str, dtype: DType, n: usize, bytes: &[u8]) -> Vec<u8> {
    let src = format!(
        "func.func @main(%a: tensor<{n}x{ty}>) -> tensor<{n}x{ty}> {{
           %0 = stablehlo.add %a, %a : tensor<{n}x{ty}>
           return %0 : tensor<{n}x{ty}>
         }}"
    );
    let exe = client().compile(&src).unwrap();
    let a = Buffer::from_bytes(dtype, &[n], bytes).unwrap();
    let out = exe.execute(&[&a]).unwrap();
    assert_eq!(out[0].element_type(), dtype);
    out[0].as_bytes().to_vec()
}

#[test]
fn small_floats_from_bytes() {
    // bf16: 1.5 = 0x3FC0 -> 3.0 = 0x4040; -2.0 = 0xC000 -> -4.0 = 0xC080.
    assert_eq!(double_bytes("bf16", DType::BF16, 2, &[0xC0, 0x3F, 0x00, 0xC0]), vec![0x40, 0x40, 0x80, 0xC0]);
    // f16: 1.0 = 0x3C00 -> 2.0 = 0x4000; 65504 (max, 0x7BFF) doubled overflows to +inf = 0x7C00.
    assert_eq!(double_bytes("f16", DType::F16, 2, &[0x00, 0x3C, 0xFF, 0x7B]), vec![0x00, 0x40, 0x00, 0x7C]);
    // f8E4M3FN: 1.0 = 0x38 -> 2.0 = 0x40; 0.5 = 0x30 -> 1.0 = 0x38.
    assert_eq!(double_bytes("f8E4M3FN", DType::F8E4M3FN, 2, &[0x38, 0x30]), vec![0x40, 0x38]);
    // f8E5M2: 1.0 = 0x3C -> 2.0 = 0x40.
    assert_eq!(double_bytes("f8E5M2", DType::F8E5M2, 1, &[0x3C]), vec![0x40]);
}

#[test]
fn sub_byte_integers_from_bytes() {
    // i4: 3+3 = 6; -4 + -4 = -8 (fits); 5+5 = 10 wraps to -6 (stored sign-extended: 0xFA).
    assert_eq!(double_bytes("i4", DType::I4, 3, &[3, 0xFC, 5]), vec![6, 0xF8, 0xFA]);
    // ui4: 7+7 = 14; 9+9 = 18 wraps to 2.
    assert_eq!(double_bytes("ui4", DType::U4, 2, &[7, 9]), vec![14, 2]);
}

#[cfg(feature = "half")]
#[test]
fn half_types() {
    use half::{bf16, f16};
    let exe = client()
        .compile(
            "func.func @main(%a: tensor<2xf16>, %b: tensor<2xbf16>) -> (tensor<2xf16>, tensor<2xbf16>) {
               %0 = stablehlo.add %a, %a : tensor<2xf16>
               %1 = stablehlo.multiply %b, %b : tensor<2xbf16>
               return %0, %1 : tensor<2xf16>, tensor<2xbf16>
             }",
        )
        .unwrap();
    let a = Buffer::from_slice(&[f16::from_f32(0.25), f16::from_f32(-3.0)], &[2]).unwrap();
    let b = Buffer::from_slice(&[bf16::from_f32(1.5), bf16::from_f32(-4.0)], &[2]).unwrap();
    let out = exe.execute(&[&a, &b]).unwrap();
    assert_eq!(out[0].to_vec::<f16>().unwrap(), vec![f16::from_f32(0.5), f16::from_f32(-6.0)]);
    assert_eq!(out[1].to_vec::<bf16>().unwrap(), vec![bf16::from_f32(2.25), bf16::from_f32(16.0)]);
}

#[test]
fn scalars_and_constants() {
    // 2.5 * 4 + 1 = 11
    let exe = client()
        .compile(
            "func.func @main(%x: tensor<f32>) -> tensor<f32> {
               %c4 = stablehlo.constant dense<4.0> : tensor<f32>
               %c1 = stablehlo.constant dense<1.0> : tensor<f32>
               %0 = stablehlo.multiply %x, %c4 : tensor<f32>
               %1 = stablehlo.add %0, %c1 : tensor<f32>
               return %1 : tensor<f32>
             }",
        )
        .unwrap();
    let out = exe.execute(&[&Buffer::scalar(2.5f32)]).unwrap();
    assert_eq!(out[0].shape(), &[] as &[usize]);
    assert_eq!(out[0].to_vec::<f32>().unwrap(), vec![11.0]);
}

#[test]
fn signature_is_reported() {
    let exe = client()
        .compile(
            "func.func @main(%a: tensor<2x?xf32>, %b: tensor<ui8>) -> tensor<2x?xf32> {
               return %a : tensor<2x?xf32>
             }",
        )
        .unwrap();
    assert_eq!(exe.entry_name(), "main");
    assert_eq!(exe.inputs().len(), 2);
    assert_eq!(exe.inputs()[0].to_string(), "tensor<2x?xf32>");
    assert_eq!(exe.inputs()[0].shape, vec![Some(2), None]);
    assert_eq!(exe.inputs()[1].dtype, DType::U8);
    assert_eq!(exe.outputs()[0].dtype, DType::F32);
    assert_eq!(exe.backend(), Backend::Interpreter);
    // A dynamic dimension takes any size.
    let a = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
    let out = exe.execute(&[&a, &Buffer::scalar(0u8)]).unwrap();
    assert_eq!(out[0].shape(), &[2, 3]);
}

#[test]
fn cpu_backend_is_its_own() {
    let c = Client::builder().backend(Backend::Cpu).build().unwrap();
    let exe = c.compile("func.func @main(%x: tensor<i32>) -> tensor<i32> { return %x : tensor<i32> }").unwrap();
    assert_eq!(exe.backend(), Backend::Cpu);
    assert_eq!(exe.execute(&[&Buffer::scalar(9i32)]).unwrap()[0].to_vec::<i32>().unwrap(), vec![9]);
}
