//! Compiling MLIR bytecode: a StableHLO portable artifact (VHLO) and plain bytecode, both exported by JAX
//! from `relu(x @ w1 + b1) @ w2 + b2` (the fixtures of oxhlo-bytecode), run on inputs whose results are
//! worked out by hand.

use oxhlo::{Backend, Buffer, Client};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/../oxhlo-bytecode/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn run_mlp(bytes: &[u8], w1: f32, b1: f32) -> Vec<f32> {
    let client = Client::builder().backend(Backend::Interpreter).build().unwrap();
    let exe = client.compile(bytes).unwrap();
    let shapes: Vec<Vec<usize>> = exe.inputs().iter().map(|s| s.shape.iter().map(|d| d.unwrap()).collect()).collect();
    assert_eq!(shapes, vec![vec![16, 32], vec![32], vec![32, 4], vec![4], vec![8, 16]]);
    let fill = |v: f32, shape: &[usize]| Buffer::from_slice(&vec![v; shape.iter().product()], shape).unwrap();
    let inputs = [
        fill(w1, &shapes[0]),
        fill(b1, &shapes[1]),
        fill(1.0, &shapes[2]),
        Buffer::from_slice(&[0.5f32, -1.0, 2.0, 0.0], &[4]).unwrap(),
        fill(1.0, &shapes[4]),
    ];
    let out = exe.execute(&inputs.iter().collect::<Vec<_>>()).unwrap();
    assert_eq!(out[0].shape(), &[8, 4]);
    out[0].to_vec::<f32>().unwrap()
}

#[test]
fn vhlo_artifact_runs() {
    // x = 1, w1 = 1: each hidden unit is 16 + b1 = 17 > 0; each output 32 * 17 = 544 plus b2.
    let out = run_mlp(&fixture("mlp.vhlo_1.13.7.mlirbc"), 1.0, 1.0);
    let row = [544.5, 543.0, 546.0, 544.0];
    assert_eq!(out, row.repeat(8));
}

#[test]
fn plain_bytecode_runs_and_relu_cuts() {
    // w1 = 0.5: hidden 8 + b1 (-10) = -2, cut to 0 by relu; outputs are b2.
    let out = run_mlp(&fixture("mlp.plain.mlirbc"), 0.5, -10.0);
    assert_eq!(out, [0.5, -1.0, 2.0, 0.0].repeat(8));
}
