//! cuDNN's algorithm choices kept on disk beside the kernel cache (`OXHLO_CUDA_CACHE`, one small text
//! file per convolution shape: `<key>.cudnn`), so that a program compiled again in a later process
//! skips cuDNN's heuristic ranking of its shapes (ResNet-18's ~35 shapes took ~190 ms of every
//! compilation on the H200 host). The key covers the shape's plan, element kind and math (the
//! [`crate::cudnn`] key), the cuDNN version and the GPU architecture; a file that does not parse is
//! ignored (ranked again).

use crate::cudnn::{Algo, Choice};
use cudarc::cudnn::sys;

/// The disk key of a convolution key's debug form on this cuDNN version and architecture.
pub(crate) fn disk_key(key_debug: &str, cudnn_version: usize, arch: &str) -> u64 {
    crate::nvrtc::hash(&format!("cudnn {cudnn_version} {arch} {key_debug}"))
}

/// The kept choice of `disk_key`: Some(None) when the shape has no usable algorithm, None when
/// nothing (readable) is kept.
pub(crate) fn load(disk_key: u64) -> Option<Option<Choice>> {
    let text = std::fs::read_to_string(crate::nvrtc::disk_path(disk_key, "cudnn")?).ok()?;
    let text = text.trim();
    if text == "none" {
        return Some(None);
    }
    Some(Some(decode(text)?))
}

/// Keeps `choice` (None: no usable algorithm) for `disk_key`.
pub(crate) fn store(disk_key: u64, choice: Option<&Choice>) {
    let text = choice.map_or_else(|| "none".to_string(), encode);
    crate::nvrtc::store(disk_key, "cudnn", text.as_bytes());
}

fn encode(c: &Choice) -> String {
    let (form, algo) = match c.algo {
        Algo::Forward(a) => ('F', a as u32),
        Algo::BackwardData(a) => ('D', a as u32),
        Algo::BackwardFilter(a) => ('W', a as u32),
    };
    format!("{form} {algo} {} {}", c.math as u32, c.workspace)
}

fn decode(text: &str) -> Option<Choice> {
    let mut it = text.split_whitespace();
    let (form, algo, math, workspace) = (it.next()?, it.next()?.parse::<u32>().ok()?, it.next()?.parse::<u32>().ok()?, it.next()?.parse::<usize>().ok()?);
    use sys::cudnnConvolutionBwdDataAlgo_t as D;
    use sys::cudnnConvolutionBwdFilterAlgo_t as W;
    use sys::cudnnConvolutionFwdAlgo_t as F;
    use sys::cudnnMathType_t as M;
    let forward = [
        F::CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM,
        F::CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM,
        F::CUDNN_CONVOLUTION_FWD_ALGO_GEMM,
        F::CUDNN_CONVOLUTION_FWD_ALGO_DIRECT,
        F::CUDNN_CONVOLUTION_FWD_ALGO_FFT,
        F::CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING,
        F::CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD,
        F::CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED,
    ];
    let data = [
        D::CUDNN_CONVOLUTION_BWD_DATA_ALGO_0,
        D::CUDNN_CONVOLUTION_BWD_DATA_ALGO_1,
        D::CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT,
        D::CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING,
        D::CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD,
        D::CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED,
    ];
    let filter = [
        W::CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0,
        W::CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1,
        W::CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT,
        W::CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3,
        W::CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD,
        W::CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED,
        W::CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING,
    ];
    let maths = [M::CUDNN_DEFAULT_MATH, M::CUDNN_TENSOR_OP_MATH, M::CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION, M::CUDNN_FMA_MATH];
    let algo = match form {
        "F" => Algo::Forward(*forward.iter().find(|a| **a as u32 == algo)?),
        "D" => Algo::BackwardData(*data.iter().find(|a| **a as u32 == algo)?),
        "W" => Algo::BackwardFilter(*filter.iter().find(|a| **a as u32 == algo)?),
        _ => return None,
    };
    let math = *maths.iter().find(|m| **m as u32 == math)?;
    Some(Choice { algo, math, workspace })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_round_trip_and_bad_text_is_ignored() {
        use sys::cudnnConvolutionBwdFilterAlgo_t as W;
        let c = Choice { algo: Algo::BackwardFilter(W::CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3), math: sys::cudnnMathType_t::CUDNN_FMA_MATH, workspace: 12345 };
        let back = decode(&encode(&c)).expect("decodes");
        assert_eq!(back.algo, c.algo);
        assert_eq!(back.math, c.math);
        assert_eq!(back.workspace, 12345);
        for bad in ["", "F", "F 9 0 0", "X 1 0 0", "F 1 7 0", "F 1 0 -1", "F one 0 0"] {
            assert!(decode(bad).is_none(), "{bad:?}");
        }
    }
}
