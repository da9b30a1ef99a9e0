//! The plan every fast backend executes, computed once from an optimized module: which ops fuse into one
//! kernel (`fusion`, reductions folded into kernels by `reduce_fusion`, softmax/layer-norm rows merged into one kernel by `row_fusion`, chains of view ops run as one copy by `view_copy`), the parsed dimension numbers of library ops (`dims`), loops whose trip count the program fixes (`loops`), and when each value dies.
//! The CPU backend (`oxhlo-cpu`) evaluates it; the CUDA backend renders the same kernels as CUDA C.

pub mod dims;
pub mod fusion;
pub mod kernel_split;
pub mod loops;
pub mod recompute;
pub mod reduce_fusion;
pub mod reducer;
pub mod row_fusion;
pub mod view_copy;
