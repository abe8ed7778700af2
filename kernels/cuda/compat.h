/* One spelling for the CUDA and HIP runtime APIs, so the .cu sources build as either: gpu*
 * names map to cuda* under nvcc and to hip* when GP_BACKEND_HIP is defined (hipcc). */
#ifndef GP_KERNELS_CUDA_COMPAT_H
#define GP_KERNELS_CUDA_COMPAT_H

#if defined(GP_BACKEND_HIP)

#include <hip/hip_runtime.h>

#define GP_BACKEND_NAME                              "hip"
#define gpuError_t                                   hipError_t
#define gpuSuccess                                   hipSuccess
#define gpuGetErrorString                            hipGetErrorString
#define gpuGetLastError                              hipGetLastError
#define gpuGetDeviceCount                            hipGetDeviceCount
#define gpuSetDevice                                 hipSetDevice
#define gpuDeviceProp                                hipDeviceProp_t
#define gpuGetDeviceProperties                       hipGetDeviceProperties
#define gpuDeviceGetAttribute                        hipDeviceGetAttribute
#define gpuDeviceGetPCIBusId                         hipDeviceGetPCIBusId
#define gpuAttrClockRate                             hipDeviceAttributeClockRate
#define gpuAttrMemoryClockRate                       hipDeviceAttributeMemoryClockRate
#define gpuAttrL2CacheSize                           hipDeviceAttributeL2CacheSize
#define gpuDriverGetVersion                          hipDriverGetVersion
#define gpuRuntimeGetVersion                         hipRuntimeGetVersion
#define gpuMalloc                                    hipMalloc
#define gpuFree                                      hipFree
#define gpuMemcpy                                    hipMemcpy
#define gpuMemcpyDeviceToHost                        hipMemcpyDeviceToHost
#define gpuStream_t                                  hipStream_t
#define gpuStreamCreate                              hipStreamCreate
#define gpuStreamDestroy                             hipStreamDestroy
#define gpuStreamSynchronize                         hipStreamSynchronize
#define gpuEvent_t                                   hipEvent_t
#define gpuEventCreate                               hipEventCreate
#define gpuEventDestroy                              hipEventDestroy
#define gpuEventRecord                               hipEventRecord
#define gpuEventSynchronize                          hipEventSynchronize
#define gpuEventElapsedTime                          hipEventElapsedTime
#define gpuOccupancyMaxActiveBlocksPerMultiprocessor hipOccupancyMaxActiveBlocksPerMultiprocessor

#else

#include <cuda_runtime.h>

#define GP_BACKEND_NAME                              "cuda"
#define gpuError_t                                   cudaError_t
#define gpuSuccess                                   cudaSuccess
#define gpuGetErrorString                            cudaGetErrorString
#define gpuGetLastError                              cudaGetLastError
#define gpuGetDeviceCount                            cudaGetDeviceCount
#define gpuSetDevice                                 cudaSetDevice
#define gpuDeviceProp                                cudaDeviceProp
#define gpuGetDeviceProperties                       cudaGetDeviceProperties
#define gpuDeviceGetAttribute                        cudaDeviceGetAttribute
#define gpuDeviceGetPCIBusId                         cudaDeviceGetPCIBusId
#define gpuAttrClockRate                             cudaDevAttrClockRate
#define gpuAttrMemoryClockRate                       cudaDevAttrMemoryClockRate
#define gpuAttrL2CacheSize                           cudaDevAttrL2CacheSize
#define gpuDriverGetVersion                          cudaDriverGetVersion
#define gpuRuntimeGetVersion                         cudaRuntimeGetVersion
#define gpuMalloc                                    cudaMalloc
#define gpuFree                                      cudaFree
#define gpuMemcpy                                    cudaMemcpy
#define gpuMemcpyDeviceToHost                        cudaMemcpyDeviceToHost
#define gpuStream_t                                  cudaStream_t
#define gpuStreamCreate                              cudaStreamCreate
#define gpuStreamDestroy                             cudaStreamDestroy
#define gpuStreamSynchronize                         cudaStreamSynchronize
#define gpuEvent_t                                   cudaEvent_t
#define gpuEventCreate                               cudaEventCreate
#define gpuEventDestroy                              cudaEventDestroy
#define gpuEventRecord                               cudaEventRecord
#define gpuEventSynchronize                          cudaEventSynchronize
#define gpuEventElapsedTime                          cudaEventElapsedTime
#define gpuOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor

#endif

#endif
