# kernplug: the two commands of the README, and the steps they are made of.
#
#   make demo    install what is missing, build, run every example, print a summary table
#   make test    install what is missing, build, run the whole CTest suite
#   make bench   install what is missing, build, then the CPU benchmarks (compile time, CPU backend vs OpenMP; a few
#                minutes, never part of make test); docs/benchmarks.md, GPU: bench/gpu/run.sh
#   make test-sanitize  the cpu tests built with ASan+UBSan (build-asan) and with TSan
#                (build-tsan): scripts/sanitize.sh; never part of make test (docs/internals.md);
#                CLANG_VERSION=22 uses clang 22 (build-asan-22, build-tsan-22)
#   make test-clang22   make test against Clang/LLVM 22 instead of 19, in build-22 (CI runs both)
#
# The real build is CMake + Ninja in $(BUILD_DIR); this file only sequences it. Each target
# runs its steps in order through sub-makes, so `make -j` cannot start a build before the
# dependencies are installed.

BUILD_DIR ?= build
# The Clang/LLVM major version to build against: 19 (the default) or 22; one per build directory.
CLANG_VERSION ?= 19
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE ?= cmake
CTEST ?= ctest
CMAKE_FLAGS ?=

CONFIGURE = $(CMAKE) -S . -B $(BUILD_DIR) -G Ninja \
            -DCMAKE_C_COMPILER=clang-$(CLANG_VERSION) -DCMAKE_CXX_COMPILER=clang++-$(CLANG_VERSION) \
            -DKERNPLUG_CLANG_VERSION=$(CLANG_VERSION) $(CMAKE_FLAGS)

.PHONY: all deps configure build demo test test-clang22 test-sanitize bench clean

all: build

# Installs missing Debian packages (apt-get, sudo when not root); quick when all are there.
deps:
	@bash scripts/install-deps.sh

# Configures once; later builds let CMake re-run itself when a CMakeLists.txt changes.
configure:
	@test -f $(BUILD_DIR)/CMakeCache.txt || $(CONFIGURE)

build: configure
	$(CMAKE) --build $(BUILD_DIR) --parallel $(JOBS)

demo:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory build
	$(CMAKE) -DBUILD_DIR=$(BUILD_DIR) -P scripts/demo.cmake

test:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory build
	$(CTEST) --test-dir $(BUILD_DIR) --output-on-failure -j$(JOBS)

# The whole suite again against Clang/LLVM 22, in its own build directory.
test-clang22:
	@$(MAKE) --no-print-directory test BUILD_DIR=build-22 CLANG_VERSION=22

# Sanitizer builds in their own directories, both run even when the first fails.
test-sanitize:
	@$(MAKE) --no-print-directory deps
	@status=0; \
	JOBS=$(JOBS) CLANG_VERSION=$(CLANG_VERSION) bash scripts/sanitize.sh address || status=1; \
	JOBS=$(JOBS) CLANG_VERSION=$(CLANG_VERSION) bash scripts/sanitize.sh thread || status=1; \
	exit $$status

bench:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory build
	@sh bench/run_cpu.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR)
