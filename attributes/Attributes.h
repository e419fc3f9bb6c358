//===- Attributes.h - kernplug attribute registration ----------*- C++ -*-===//
//
// kernel, device, shared, vectorize("sig", …), guvectorize("layout") and reduce. Each accepted
// attribute leaves an AnnotateAttr named by the constants below (device and
// shared leave clang's own CUDADeviceAttr / CUDASharedAttr), which the AST
// checks read.
//
//===----------------------------------------------------------------------===//
#ifndef KERNPLUG_ATTRIBUTES_ATTRIBUTES_H
#define KERNPLUG_ATTRIBUTES_ATTRIBUTES_H

#include <string>
#include <cstdint>

namespace clang {
class Decl;
class IdentifierInfo;
class NamedDecl;
class FunctionDecl;
class AnnotateAttr;
} // namespace clang

namespace kernplug {

inline constexpr const char *AnnotKernel = "kernplug.kernel";
inline constexpr const char *AnnotVectorize = "kernplug.vectorize";
inline constexpr const char *AnnotGuvectorize = "kernplug.guvectorize";
inline constexpr const char *AnnotReduce = "kernplug.reduce";
inline constexpr const char *AnnotShared = "kernplug.shared";
/// A file-scope `constant` variable (clang's CUDAConstantAttr in C): .const on the GPU.
inline constexpr const char *AnnotConstant = "kernplug.constant";
/// launch_bounds(max_threads[, min_blocks]) on a kernel: the annotation is this
/// prefix followed by "<max_threads>,<min_blocks>" (min_blocks 0 when not given),
/// added by KernelCollector from clang's CUDALaunchBoundsAttr.
inline constexpr const char *AnnotLaunchBoundsPrefix = "kernplug.launch_bounds=";

/// Makes clang hand the C spellings `device` and `shared` (which it resolves to
/// disabled CUDA attributes) and, in clang 19, `kernel` (RenderScript's) to
/// kernplug; clang 22 has no `kernel` of its own, and gets a plugin attribute
/// (plugin/ClangCompat.h). Must run before parsing starts. Returns false if
/// this clang's attribute table does not have the expected shape, so that the
/// caller can report it loudly.
bool installBuiltinSpellingOverrides();

/// The kernplug annotation named Name on D, or null.
const clang::AnnotateAttr *findAnnotation(const clang::Decl *D, const char *Name);

/// Plain names for diagnostics (clang would quote a Decl argument itself).
std::string nameOf(const clang::NamedDecl *D);
std::string nameOf(const clang::IdentifierInfo *II);

bool isKernel(const clang::FunctionDecl *FD);
bool isVectorize(const clang::FunctionDecl *FD);
bool isGuvectorize(const clang::FunctionDecl *FD);
bool isReduce(const clang::FunctionDecl *FD);
/// device functions, plus every kernel/vectorize/guvectorize/reduce function.
bool isMarkedDevice(const clang::FunctionDecl *FD);
/// Whether FD has launch_bounds(max_threads[, min_blocks]); MaxThreads is 0
/// when the first value is not an integer constant in 1..1024, MinBlocks ~0
/// when the second is not one in 0..32 (LaunchArgChecks reports both).
bool launchBoundsOf(const clang::FunctionDecl *FD, uint64_t &MaxThreads, uint64_t &MinBlocks);

} // namespace kernplug

#endif
