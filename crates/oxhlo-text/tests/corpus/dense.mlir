// Dense literal syntaxes: splats, nested lists, empty, hex raw storage (MLIR's layout) for every
// element kind, hex bit patterns of special floats, large literals (printed back as hex), arrays.
func.func @dense() -> tensor<2x2xf32> {
  %0 = stablehlo.constant dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
  %1 = stablehlo.constant dense<7> : tensor<3x4xi32>
  %2 = stablehlo.constant dense<[[[1], [2]], [[3], [4]]]> : tensor<2x2x1xi64>
  %3 = stablehlo.constant dense<> : tensor<0xf32>
  %4 = stablehlo.constant dense<[]> : tensor<0xi8>
  %5 = stablehlo.constant dense<[[], []]> : tensor<2x0xf64>
  %6 = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  %7 = stablehlo.constant dense<"0x0000803F"> : tensor<5xf32>
  %8 = stablehlo.constant dense<"0x010001"> : tensor<3xi1>
  %9 = stablehlo.constant dense<"0xFF"> : tensor<4xi1>
  %10 = stablehlo.constant dense<"0x0F01"> : tensor<2xi4>
  %11 = stablehlo.constant dense<"0x803F0040"> : tensor<2xbf16>
  %12 = stablehlo.constant dense<"0x0000803F000000400000404000008040"> : tensor<2xcomplex<f32>>
  %13 = stablehlo.constant dense<"0x0100000000000000FFFFFFFFFFFFFFFF"> : tensor<2xi64>
  %14 = stablehlo.constant dense<"0xFFFF"> : tensor<ui16>
  %15 = stablehlo.constant dense<[0x7FC00000, 0xFF800000, 0x00000001, -0.000000e+00]> : tensor<4xf32>
  %16 = stablehlo.constant dense<[1.000000e+00, 0x7FF8000000000001]> : tensor<2xf64>
  %17 = stablehlo.constant dense<[true, false, true, true]> : tensor<4xi1>
  %18 = stablehlo.constant dense<[1, 0]> : tensor<2xi1>
  %19 = stablehlo.constant dense<0x7FC0> : tensor<2x3xbf16>
  %20 = stablehlo.constant dense<[0.1, 1.0E-7, 3.40282347E+38, 9.99999993E-9, 1.2345679E+20]> : tensor<5xf32>
  %21 = stablehlo.constant dense<[0.1, 0.2]> : tensor<2xf16>
  %22 = stablehlo.constant dense<[-1, 255]> : tensor<2xi8>
  %23 = stablehlo.constant dense<[0x10, 0xFF]> : tensor<2xui8>
  %24 = stablehlo.constant dense<[-3.523, -6.983, 3.019, -8.551, 0.718, -2.686, -8.84, 0.149, -9.25, -1.327, -8.603, -8.186, -1.51, 6.537, -7.524, -5.535, 2.549, 8.954, 1.542, -2.066, 9.525, -9.068, 7.169, -4.208, -7.115, -7.644, -3.83, 6.323, -6.385, 1.632, 2.778, -2.552, 0.955, -8.744, -8.808, -5.881, 3.608, -1.448, -3.717, 1.711, -0.936, -4.005, 5.888, 3.98, -5.118, 1.488, 0.504, 7.503, 4.589, -4.241, 9.603, -7.639, -1.638, 5.143, -6.96, -0.221, -9.216, 3.364, 5.291, 1.461, 7.51, -3.725, 3.906, 1.887, 1.598, -0.876, 6.799, 8.894, -0.518, 3.283, -8.787, 4.03, 2.943, 9.862, 6.438, -4.308, -2.284, 3.373, -9.549, -0.766, -6.639, -7.658, -8.821, 5.365, -7.413, -5.048, -2.181, 7.428, -8.388, -1.016, 0.989, 7.668, 6.386, 7.28, -4.432, -1.694, -2.825, 7.684, 9.155, -6.982, -6.476, -5.361, -5.333, -0.301, 1.782, -4.745, -9.918, -1.621, -2.615, 1.327, 9.062, 3.81, 0.31, 2.352, 3.524, -8.92, 7.991, 5.599, 7.49, 5.957, -2.152, -2.02, -7.929, 2.686, -8.755, -8.653, -5.825, -6.754, -3.199, -8.948, -9.995, -6.975, -7.971, -2.728, -9.49, 7.487, 2.281, -7.029, -4.955, -3.052, -2.717, -7.543, 6.979, 9.862, -0.68, -0.323, -8.282, -7.956, -3.147, -4.705]> : tensor<150xf32>
  %25 = stablehlo.constant dense<[697, 417, -670, 57, -953, -580, 947, 949, 81, -260, -700, 413, 112, 872, -945, 552, 81, -390, 316, 768, -814, 425, 731, -466, 61, -249, 860, -658, -272, 580, -544, 90, 109, 595, 29, -325, 303, -544, 255, 661, 614, 553, 746, -601, 650, -510, 675, -180, 515, 645, -536, -591, 60, 9, -272, 497, -941, -943, 618, -428, -33, -470, -604, 418, 239, 958, -295, -85, 655, 919, 480, -285, 955, 995, -254, -836, -549, -791, -536, -38, -598, -309, -582, -12, 278, 843, 249, 721, -997, -19, 862, 337, -296, 637, 317, -827, 709, 352, -755, 863, -205, 602, 457, 536, -592, -21, 820, -635, -112, 616, 302, -320, -823, 640, 937, 989, 478, -190, -52, -178]> : tensor<120xi32>
  %26 = stablehlo.constant dense<[true, true, true, true, true, true, false, true, false, false, true, true, true, true, true, true, false, true, true, true, false, true, false, true, false, false, false, true, true, false, false, false, true, true, true, false, true, true, true, true, true, false, true, true, false, false, true, true, true, true, false, true, true, false, true, true, false, false, true, false, false, false, true, false, true, false, true, false, true, false, false, false, true, true, false, true, true, false, true, true, false, true, false, true, false, true, true, false, false, true, true, true, false, false, false, false, true, false, false, true, false, true, false, false, false, true, false, false, false, true, true, true, true, true, false, false, true, true, false, true, false, false, false, true, false, false, true, false]> : tensor<128xi1>
  %27 = stablehlo.constant dense<[(-2.5, -0.75), (0.5, -1.0), (-0.5, -1.25), (2.5, -1.0), (-0.5, -1.0), (2.0, -0.5), (-2.0, -0.25), (-2.0, 0.5), (-2.5, 0.0), (1.5, 0.25), (-0.5, 1.0), (-1.5, -1.25), (1.5, -0.5), (-2.0, -0.75), (-0.5, -1.25), (-1.5, -0.5), (-0.5, 1.25), (-0.5, 0.75), (-1.0, -0.25), (1.0, 0.75), (2.5, -0.75), (-0.5, 0.0), (-2.5, -0.25), (-2.5, -1.25), (-2.5, 0.75), (1.5, -0.5), (1.5, 0.5), (-1.0, 0.5), (-2.0, 1.25), (2.5, 0.25), (2.5, 0.5), (1.5, 0.25), (1.5, -0.25), (-1.0, -0.5), (0.0, -0.5), (2.5, -0.75), (0.5, 0.0), (-2.5, -0.75), (-2.5, -1.0), (2.5, -0.25), (0.5, -0.75), (-2.5, -1.0), (2.5, 0.25), (1.5, 1.25), (-0.5, 1.0), (-1.0, -0.25), (-2.5, 0.5), (-1.5, -0.75), (-0.5, 0.5), (-2.5, -0.25), (0.0, 0.0), (1.5, 0.0), (-1.0, -1.25), (-0.5, -0.5), (0.0, -0.75), (-2.5, 0.0), (0.5, -1.0), (1.0, -0.25), (1.5, 1.25), (-1.0, -0.5), (1.5, -1.25), (-2.0, -0.25), (-2.0, -0.75), (0.5, 1.0), (-2.5, 0.25), (-2.5, -0.25), (-0.5, 1.25), (-1.0, -1.0), (2.0, 0.75), (-1.5, 1.25), (2.0, 0.25), (0.0, 0.5), (-1.5, -0.25), (2.0, 1.25), (-1.5, -1.25), (1.5, 1.25), (0.5, 0.75), (-1.5, 0.75), (1.5, 1.0), (-2.5, 1.25), (2.0, 1.25), (2.5, -0.5), (-2.0, -1.25), (-2.5, -0.75), (2.5, 0.0), (-2.0, 0.25), (1.0, 0.75), (-2.5, 1.25), (-2.5, 1.25), (1.5, 1.25), (-1.0, 0.5), (-0.5, -1.25), (1.0, -1.0), (1.5, 0.75), (-2.0, 1.25), (1.5, -1.0), (1.0, -0.25), (-2.0, -0.25), (-1.0, -0.5), (-1.0, 1.25), (1.0, 0.5)]> : tensor<101xcomplex<f64>>
  %28 = stablehlo.constant dense<"0xC327F5931765274BA9829B4406F61FF889326FFA9492EDEEEE3C669F2BF20894EA27E689C66B6B262E4886B8438F39BA76FEF8C90C5101FBE6CF9A48D5B0C0A13DA900A6ADCB3D64069481BE21C9C727B8DB8C188F341A924C7F88DFA161BFDB0ECC682919D2E64692F8194157F1D4AF90988285CF7A9AF7C93D5552266AFE70E7AAE6DA47627C2E59AF2EA37ABC84670AD3C4D36BC08AAD1FFF8EB8406E2F8A7FC4CCE4DD9F0B4110D9F2FA0025C8EFE57F37724F4D37EA2B14004077139B4180DF3932249962C6857200059AEB8EA17CF3787E0ED29D1C0B63FFD7298374D9BD74FC11ADD7B9CA6503952269FD669F6376EE71879737FD5F72F8D51C4AC91B6D0C48D41A1E5EC9E6A0392854A8615EEF109FC1BFA9E2563701288F29B3D73F6AC2B69EDD2C19F264BEE462A5BAF20FD27ECF14C011ED201F836320ADB98BAB1686A28D9801210C7736F3EEC580DCFC43FE5D049B4D78A7A3EBB92865C8517ED02111F6A652DA3524872B6A31D7FFE4587744D5EB783E96968F89BE828565E07E5F7D784E9060A721CA807D7633ED12"> : tensor<200xf16>
  %29 = stablehlo.constant dense<"0x03000F070E0B01090703010606020B050E0800030B06010B0A040106080106000A0D0B05090206010F0F020D030C0402050C080D09090D01090B0D0D000B060C0C06000D050D03020C0B0E05040001040C020B05040B09050502030C0F060904010F0A010C0205070C060F0506010C050C0B0304070601010A030C0E090D09070D0C"> : tensor<130xui4>
  return %0 : tensor<2x2xf32>
}

func.func @arrays() attributes {a_i1 = array<i1: true, false>, a_i8 = array<i8: -1, 2>, a_i16 = array<i16: 300>, a_i32 = array<i32>, a_i64 = array<i64: 1, -2, 9223372036854775807>, a_f32 = array<f32: 1.500000e+00, 0x7F800000>, a_f64 = array<f64: 1.000000e-01>} {
  return
}
