/* One spelling for cuBLASLt and hipBLASLt (their matmul APIs mirror each other), for the vendor
 * GEMM path of the CUDA and HIP modules. Defines GP_HAVE_VENDOR_GEMM when one is available. */
#ifndef GP_KERNELS_CUDA_BLASLT_H
#define GP_KERNELS_CUDA_BLASLT_H

#if defined(GP_BACKEND_HIP) && defined(GP_HAVE_HIPBLASLT)

#include <hipblaslt/hipblaslt.h>

#define GP_HAVE_VENDOR_GEMM      1
#define GP_VENDOR_GEMM_NAME      "hipBLASLt"
#define ltHandle_t               hipblasLtHandle_t
#define ltStatus_t               hipblasStatus_t
#define LT_SUCCESS               HIPBLAS_STATUS_SUCCESS
#define ltCreate                 hipblasLtCreate
#define ltDestroy                hipblasLtDestroy
#define ltMatmulDesc_t           hipblasLtMatmulDesc_t
#define ltMatmulDescCreate       hipblasLtMatmulDescCreate
#define ltMatmulDescDestroy      hipblasLtMatmulDescDestroy
#define ltMatmulDescSetAttribute hipblasLtMatmulDescSetAttribute
#define LT_DESC_TRANSA           HIPBLASLT_MATMUL_DESC_TRANSA
#define LT_DESC_TRANSB           HIPBLASLT_MATMUL_DESC_TRANSB
#define ltOperation_t            hipblasOperation_t
#define LT_OP_N                  HIPBLAS_OP_N
#define LT_OP_T                  HIPBLAS_OP_T
#define ltLayout_t               hipblasLtMatrixLayout_t
#define ltLayoutCreate           hipblasLtMatrixLayoutCreate
#define ltLayoutDestroy          hipblasLtMatrixLayoutDestroy
#define ltPreference_t           hipblasLtMatmulPreference_t
#define ltPreferenceCreate       hipblasLtMatmulPreferenceCreate
#define ltPreferenceDestroy      hipblasLtMatmulPreferenceDestroy
#define ltPreferenceSetAttribute hipblasLtMatmulPreferenceSetAttribute
#define LT_PREF_MAX_WORKSPACE    HIPBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES
#define ltHeuristic_t            hipblasLtMatmulHeuristicResult_t
#define ltAlgoGetHeuristic       hipblasLtMatmulAlgoGetHeuristic
#define ltMatmul                 hipblasLtMatmul
#define ltComputeType_t          hipblasComputeType_t
#define ltDataType_t             hipDataType
#define LT_COMPUTE_32F           HIPBLAS_COMPUTE_32F
#define LT_R_32F                 HIP_R_32F
#define LT_R_16F                 HIP_R_16F
#define LT_R_16BF                HIP_R_16BF
/* tf32 (xf32) and fp8 names differ across ROCm releases: those precisions use the own kernel,
 * and fp8 has no fast-accumulation switch here. hipBLASLt's status strings come from hipBLAS,
 * which the module does not link: the number is reported. */
static inline const char *ltStatusName(hipblasStatus_t status)
{
    return status == HIPBLAS_STATUS_SUCCESS ? "HIPBLAS_STATUS_SUCCESS" : "hipBLAS status";
}

#elif !defined(GP_BACKEND_HIP) && defined(GP_HAVE_CUBLASLT)

#include <cublasLt.h>

#define GP_HAVE_VENDOR_GEMM      1
#define GP_VENDOR_GEMM_NAME      "cuBLASLt"
#define GP_VENDOR_TF32           1
#define GP_VENDOR_FP8            1
#define GP_VENDOR_ALGO_CONFIG    1
#define ltStatusName             cublasLtGetStatusName
#define LT_DESC_FAST_ACCUM       CUBLASLT_MATMUL_DESC_FAST_ACCUM
#define ltAlgoConfigGet          cublasLtMatmulAlgoConfigGetAttribute
#define LT_ALGO_CONFIG_ID        CUBLASLT_ALGO_CONFIG_ID
#define LT_ALGO_CONFIG_TILE_ID   CUBLASLT_ALGO_CONFIG_TILE_ID
#define LT_ALGO_CONFIG_STAGES_ID CUBLASLT_ALGO_CONFIG_STAGES_ID
#define ltHandle_t               cublasLtHandle_t
#define ltStatus_t               cublasStatus_t
#define LT_SUCCESS               CUBLAS_STATUS_SUCCESS
#define ltCreate                 cublasLtCreate
#define ltDestroy                cublasLtDestroy
#define ltMatmulDesc_t           cublasLtMatmulDesc_t
#define ltMatmulDescCreate       cublasLtMatmulDescCreate
#define ltMatmulDescDestroy      cublasLtMatmulDescDestroy
#define ltMatmulDescSetAttribute cublasLtMatmulDescSetAttribute
#define LT_DESC_TRANSA           CUBLASLT_MATMUL_DESC_TRANSA
#define LT_DESC_TRANSB           CUBLASLT_MATMUL_DESC_TRANSB
#define ltOperation_t            cublasOperation_t
#define LT_OP_N                  CUBLAS_OP_N
#define LT_OP_T                  CUBLAS_OP_T
#define ltLayout_t               cublasLtMatrixLayout_t
#define ltLayoutCreate           cublasLtMatrixLayoutCreate
#define ltLayoutDestroy          cublasLtMatrixLayoutDestroy
#define ltPreference_t           cublasLtMatmulPreference_t
#define ltPreferenceCreate       cublasLtMatmulPreferenceCreate
#define ltPreferenceDestroy      cublasLtMatmulPreferenceDestroy
#define ltPreferenceSetAttribute cublasLtMatmulPreferenceSetAttribute
#define LT_PREF_MAX_WORKSPACE    CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES
#define ltHeuristic_t            cublasLtMatmulHeuristicResult_t
#define ltAlgoGetHeuristic       cublasLtMatmulAlgoGetHeuristic
#define ltMatmul                 cublasLtMatmul
#define ltComputeType_t          cublasComputeType_t
#define ltDataType_t             cudaDataType_t
#define LT_COMPUTE_32F           CUBLAS_COMPUTE_32F
#define LT_COMPUTE_32F_FAST_TF32 CUBLAS_COMPUTE_32F_FAST_TF32
#define LT_R_32F                 CUDA_R_32F
#define LT_R_16F                 CUDA_R_16F
#define LT_R_16BF                CUDA_R_16BF
#define LT_R_8F_E4M3             CUDA_R_8F_E4M3

#endif

#endif
