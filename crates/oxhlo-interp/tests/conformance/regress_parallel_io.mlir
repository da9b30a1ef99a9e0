// Regression: interpreter.run_parallel features — send/recv between processes (channels shared by the
// run; recv waits for the other process's send), the `infeed = [@f, ...]` attribute, collective_reduce
// (group root gets the reduction, others zeros), collective_broadcast with has_dynamic_root, and
// replica_groups given as #stablehlo.replica_group_mesh_axes. Expected values worked out by hand.

module @send_recv {
  func.func @sender(%x : tensor<3xi32>, %t : !stablehlo.token) -> !stablehlo.token {
    %t1 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 2>, is_host_transfer = true} : (tensor<3xi32>, !stablehlo.token) -> !stablehlo.token
    %y = stablehlo.add %x, %x : tensor<3xi32>
    %t2 = "stablehlo.send"(%y, %t1) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 2>, is_host_transfer = true} : (tensor<3xi32>, !stablehlo.token) -> !stablehlo.token
    return %t2 : !stablehlo.token
  }
  func.func @receiver(%t : !stablehlo.token) -> (tensor<3xi32>, tensor<3xi32>) {
    %a, %t1 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<3xi32>, !stablehlo.token)
    %b, %t2 = "stablehlo.recv"(%t1) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<3xi32>, !stablehlo.token)
    return %a, %b : tensor<3xi32>, tensor<3xi32>
  }
  func.func @main() {
    %x = stablehlo.constant dense<[1, -2, 3]> : tensor<3xi32>
    %t = stablehlo.after_all : !stablehlo.token
    // the receiver is process 0, so its recv runs before (or while) the sender sends
    %r:3 = "interpreter.run_parallel"(%t, %x, %t) {programs = [[@receiver], [@sender]]} : (!stablehlo.token, tensor<3xi32>, !stablehlo.token) -> (tensor<3xi32>, tensor<3xi32>, !stablehlo.token)
    check.expect_eq_const %r#0, dense<[1, -2, 3]> : tensor<3xi32>
    check.expect_eq_const %r#1, dense<[2, -4, 6]> : tensor<3xi32>
    func.return
  }
}

// -----

module @infeed_attr {
  func.func @reader(%t : !stablehlo.token) -> (tensor<2xf32>, tensor<2xf32>) {
    %a, %t1 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
    %b, %t2 = "stablehlo.infeed"(%t1) : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
    return %a, %b : tensor<2xf32>, tensor<2xf32>
  }
  func.func @feed_a() -> tensor<2xf32> {
    %c = stablehlo.constant dense<[0.5, 1.5]> : tensor<2xf32>
    return %c : tensor<2xf32>
  }
  func.func @feed_b() -> tensor<2xf32> {
    %c = stablehlo.constant dense<[-4.0, 8.0]> : tensor<2xf32>
    return %c : tensor<2xf32>
  }
  func.func @main() {
    %t = stablehlo.after_all : !stablehlo.token
    %r:2 = "interpreter.run_parallel"(%t) {infeed = [@feed_a, @feed_b], programs = [[@reader]]} : (!stablehlo.token) -> (tensor<2xf32>, tensor<2xf32>)
    check.expect_eq_const %r#0, dense<[0.5, 1.5]> : tensor<2xf32>
    check.expect_eq_const %r#1, dense<[-4.0, 8.0]> : tensor<2xf32>
    func.return
  }
}

// -----

module @collective_reduce {
  func.func @f(%x : tensor<2xi32>) -> tensor<2xi32> {
    %r = "stablehlo.collective_reduce"(%x) ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %m = stablehlo.maximum %a, %b : tensor<i32>
        stablehlo.return %m : tensor<i32>
    }) {replica_groups = dense<[[2, 0], [1, -1]]> : tensor<2x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
    return %r : tensor<2xi32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 9]> : tensor<2xi32>
    %b = stablehlo.constant dense<[5, 5]> : tensor<2xi32>
    %c = stablehlo.constant dense<[7, 2]> : tensor<2xi32>
    // groups [2, 0] (root replica 2) and [1] (the -1 pads; replica 1 is its own root)
    %r:3 = "interpreter.run_parallel"(%a, %b, %c) {programs = [[@f], [@f], [@f]]} : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
    check.expect_eq_const %r#0, dense<[0, 0]> : tensor<2xi32>
    check.expect_eq_const %r#1, dense<[5, 5]> : tensor<2xi32>
    check.expect_eq_const %r#2, dense<[7, 9]> : tensor<2xi32>
    func.return
  }
}

// -----

module @broadcast_dynamic_root {
  func.func @f(%d0 : tensor<2xi64>, %d1 : tensor<i64>, %root : tensor<2xi32>) -> (tensor<2xi64>, tensor<i64>) {
    %r:2 = "stablehlo.collective_broadcast"(%d0, %d1, %root) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>, has_dynamic_root} : (tensor<2xi64>, tensor<i64>, tensor<2xi32>) -> (tensor<2xi64>, tensor<i64>)
    return %r#0, %r#1 : tensor<2xi64>, tensor<i64>
  }
  func.func @main() {
    %root = stablehlo.constant dense<[2, 1]> : tensor<2xi32>
    %a0 = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
    %a1 = stablehlo.constant dense<10> : tensor<i64>
    %b0 = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
    %b1 = stablehlo.constant dense<20> : tensor<i64>
    %c0 = stablehlo.constant dense<[5, 6]> : tensor<2xi64>
    %c1 = stablehlo.constant dense<30> : tensor<i64>
    %r:6 = "interpreter.run_parallel"(%a0, %a1, %root, %b0, %b1, %root, %c0, %c1, %root) {programs = [[@f], [@f], [@f]]} : (tensor<2xi64>, tensor<i64>, tensor<2xi32>, tensor<2xi64>, tensor<i64>, tensor<2xi32>, tensor<2xi64>, tensor<i64>, tensor<2xi32>) -> (tensor<2xi64>, tensor<i64>, tensor<2xi64>, tensor<i64>, tensor<2xi64>, tensor<i64>)
    // operand 0 comes from group member 2, operand 1 from member 1, on every process
    check.expect_eq_const %r#0, dense<[5, 6]> : tensor<2xi64>
    check.expect_eq_const %r#1, dense<20> : tensor<i64>
    check.expect_eq_const %r#4, dense<[5, 6]> : tensor<2xi64>
    check.expect_eq_const %r#5, dense<20> : tensor<i64>
    func.return
  }
}

// -----

// mesh x=2, y=2 (devices 0..3 row-major: d = 2x + y); groups along x: {0, 2} and {1, 3}
module @mesh_axes_full_axis {
  func.func @f(%x : tensor<i64>) -> tensor<i64> {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %s = stablehlo.add %a, %b : tensor<i64>
        stablehlo.return %s : tensor<i64>
    }) {replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "x", size = 2>, #stablehlo.mesh_axis<name = "y", size = 2>]>, axes = [#stablehlo.axis_ref<name = "x">]>} : (tensor<i64>) -> tensor<i64>
    return %r : tensor<i64>
  }
  func.func @main() {
    %p0 = stablehlo.constant dense<1> : tensor<i64>
    %p1 = stablehlo.constant dense<2> : tensor<i64>
    %p2 = stablehlo.constant dense<4> : tensor<i64>
    %p3 = stablehlo.constant dense<8> : tensor<i64>
    %r:4 = "interpreter.run_parallel"(%p0, %p1, %p2, %p3) {programs = [[@f], [@f], [@f], [@f]]} : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>)
    check.expect_eq_const %r#0, dense<5> : tensor<i64>
    check.expect_eq_const %r#1, dense<10> : tensor<i64>
    check.expect_eq_const %r#2, dense<5> : tensor<i64>
    check.expect_eq_const %r#3, dense<10> : tensor<i64>
    func.return
  }
}

// -----

// mesh y=4 alone; sub-axis (2)2 is the minor half of y (y = 2*hi + lo): groups {0, 1} and {2, 3}
module @mesh_axes_minor_sub_axis {
  func.func @f(%x : tensor<i64>) -> tensor<i64> {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %s = stablehlo.add %a, %b : tensor<i64>
        stablehlo.return %s : tensor<i64>
    }) {replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "y", size = 4>]>, axes = [#stablehlo.axis_ref<name = "y", sub_axis_info = (2)2>]>} : (tensor<i64>) -> tensor<i64>
    return %r : tensor<i64>
  }
  func.func @main() {
    %p0 = stablehlo.constant dense<1> : tensor<i64>
    %p1 = stablehlo.constant dense<2> : tensor<i64>
    %p2 = stablehlo.constant dense<4> : tensor<i64>
    %p3 = stablehlo.constant dense<8> : tensor<i64>
    %r:4 = "interpreter.run_parallel"(%p0, %p1, %p2, %p3) {programs = [[@f], [@f], [@f], [@f]]} : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>)
    check.expect_eq_const %r#0, dense<3> : tensor<i64>
    check.expect_eq_const %r#1, dense<3> : tensor<i64>
    check.expect_eq_const %r#2, dense<12> : tensor<i64>
    check.expect_eq_const %r#3, dense<12> : tensor<i64>
    func.return
  }
}

// -----

// all_gather with a channel and no use_global_device_ids: cross_replica_and_partition. Each group holds
// every partition of the listed replicas (the result is 4x the operand on a 2x2 grid; the verifier must
// not assume 1 partition), in the spec's order (r0,p0), (r1,p0), (r0,p1), (r1,p1).
module @all_gather_cross_replica_and_partition {
  func.func @f(%x : tensor<1xi64>) -> tensor<4xi64> {
    %r = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>} : (tensor<1xi64>) -> tensor<4xi64>
    return %r : tensor<4xi64>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1]> : tensor<1xi64>
    %b = stablehlo.constant dense<[2]> : tensor<1xi64>
    %c = stablehlo.constant dense<[3]> : tensor<1xi64>
    %d = stablehlo.constant dense<[4]> : tensor<1xi64>
    // programs[replica][partition]: operands in (r0,p0), (r0,p1), (r1,p0), (r1,p1) order
    %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@f, @f], [@f, @f]]} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> (tensor<4xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>)
    check.expect_eq_const %r#0, dense<[1, 3, 2, 4]> : tensor<4xi64>
    check.expect_eq_const %r#3, dense<[1, 3, 2, 4]> : tensor<4xi64>
    func.return
  }
}
