# Entry points named in README.md. Each installs missing Debian packages first.
#   make demo   build the ossa command, then render the built-in demo model (or MODEL=path.glb)
#               to $(DEMO_GIF)
#   make test   check the C files' format, build and run every test suite, normal and under
#               ASan+UBSan, the threads test under TSan, the conformance suites under valgrind,
#               the Python package's suite, and each fuzzer for a while
#   make fuzz   run each fuzz target for FUZZ_SECONDS (corpus kept in build-fuzz/corpus)
#   make web    build the CPU library to WebAssembly and the viewer page into $(WEB_DIR) (installs
#               Debian's emscripten; serve it with `python3 -m http.server` in $(WEB_DIR))
#   make test-web  the WebAssembly core under node against the golden files and the page in
#               headless chromium (part of `make test`; skipped, saying so, without emcc, node or
#               chromium: `sh scripts/install-web-deps.sh --with-browser` installs them)
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)
MODEL  ?=
DEMO_GIF ?= out/demo.gif
CMAKE_FLAGS ?= -DOSSA_WERROR=ON
# Fuzzing (fuzz/): clang for libFuzzer, seconds per target for `make fuzz` and for `make test`.
FUZZ_CC ?= $(shell command -v clang-14 || command -v clang)
FUZZ_SECONDS ?= 900
FUZZ_TEST_SECONDS ?= 300
# Suites run under valgrind memcheck by test-valgrind (a ctest -R regex; the hostile suite is left
# to ASan: its 100,000-node and 65,536-joint cases take minutes under valgrind).
VALGRIND_TESTS ?= ^(anim_conformance|skin_conformance|io_.*|limits|regressions_replay|threads_shared)$$
VALGRIND_OPTIONS ?= --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect

.PHONY: all deps build build-asan build-tsan build-fuzz demo test test-format test-fast test-asan \
	test-tsan test-valgrind test-fuzz test-python fuzz docs clean web test-web

all: build

deps:
	@sh scripts/install-deps.sh

build: deps
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build build -j $(JOBS)

build-asan: deps
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DOSSA_SANITIZE=address,undefined $(CMAKE_FLAGS) >/dev/null
	@cmake --build build-asan -j $(JOBS)

# The demo needs the ossa command only, not the test suites (a third of the compile).
demo: deps
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build build -j $(JOBS) --target ossa_cli
	./build/ossa render $(MODEL) -o "$(DEMO_GIF)"

test-fast: build
	cd build && ctest --output-on-failure -j $(JOBS)

test-asan: build-asan
	cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j $(JOBS) -LE no-sanitizer

# ThreadSanitizer: only the tests labelled `threads` are built and run.
build-tsan: deps
	@cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DOSSA_SANITIZE=thread $(CMAKE_FLAGS) >/dev/null
	@cmake --build build-tsan -j $(JOBS) --target threads_shared model_runtime

# Without address randomisation where allowed: TSan's memory layout conflicts with the large
# mmap randomisation of some kernels.
test-tsan: build-tsan
	cd build-tsan && norandom=$$(setarch $$(uname -m) -R true 2>/dev/null && echo setarch $$(uname -m) -R); \
		TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
		$$norandom ctest --output-on-failure -j $(JOBS) -L threads

# valgrind memcheck over the conformance suites of the normal build: zero errors, zero leaks.
test-valgrind: build
	cd build && ctest --output-on-failure -j $(JOBS) -T memcheck -R '$(VALGRIND_TESTS)' \
		--overwrite MemoryCheckCommand=$$(command -v valgrind) \
		--overwrite "MemoryCheckCommandOptions=$(VALGRIND_OPTIONS)"

# libFuzzer targets (their own CMake project, built with clang, ASan + UBSan).
build-fuzz: deps
	@cmake -S fuzz -B build-fuzz -DCMAKE_C_COMPILER=$(FUZZ_CC) >/dev/null
	@cmake --build build-fuzz -j $(JOBS)

fuzz: build-fuzz
	cd build-fuzz && FUZZ_SECONDS=$(FUZZ_SECONDS) ctest --output-on-failure -j $(JOBS) -L fuzz; \
		status=$$?; cat *.stats 2>/dev/null; exit $$status

test-fuzz: build-fuzz
	cd build-fuzz && FUZZ_SECONDS=$(FUZZ_TEST_SECONDS) ctest --output-on-failure -j $(JOBS) -L fuzz; \
		status=$$?; cat *.stats 2>/dev/null; exit $$status

# Every tracked C file as the root .clang-format says (Debian's clang-format 14).
test-format: deps
	@files=$$(git ls-files '*.c' '*.h' 2>/dev/null || find src include tools tests fuzz examples docs -name '*.[ch]'); \
	clang-format --dry-run --Werror $$files && echo "test-format: $$(echo $$files | wc -w) files formatted"

# The WebAssembly build ($(WEB_DIR)/index.html, ossa.js, ossa.wasm): web/web.mk has the rules.
WEB_DIR ?= build-web
web:
	@sh scripts/install-web-deps.sh $(WEB_DIR)/deps
	@$(MAKE) --no-print-directory -f web/web.mk OUT=$(WEB_DIR) -j $(JOBS)
	@echo "web: built $(WEB_DIR)/; serve it with: cd $(WEB_DIR) && python3 -m http.server 8000"

# The node suites of tests/web (build/ossa, when built, is compared float for float). The page
# suite skips itself, saying so, without chromium.
test-web:
	@if ! command -v emcc >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then \
		echo "test-web: SKIPPED (emcc or node is not installed; sh scripts/install-web-deps.sh --with-browser installs them)"; \
	else \
		$(MAKE) --no-print-directory web WEB_DIR=$(WEB_DIR) && \
		OSSA_WEB_DIR=$(WEB_DIR) node --no-experimental-fetch --test tests/web/core.test.mjs tests/web/page.test.mjs; \
	fi

# The Python package (python/): its library built in place by setup.py, then its pytest suite
# (against ../shared and the ossa command of build/), when $(PYTHON) has NumPy, pytest and
# setuptools (Debian's python3-numpy, python3-pytest, python3-setuptools; `make deps` installs
# them); otherwise it says that it skips. pytest's exit 5 (no tests collected) fails.
PYTHON ?= /usr/bin/python3
test-python: build
	@if ! $(PYTHON) -c "import numpy, pytest, setuptools" 2>/dev/null; then \
		echo "test-python: SKIPPED: $(PYTHON) lacks numpy, pytest or setuptools" \
			"(Debian: apt-get install python3-numpy python3-pytest python3-setuptools)"; \
	else \
		$(PYTHON) setup.py -q build_ext --inplace || exit 1; \
		OSSA_CLI="$(CURDIR)/build/ossa" $(PYTHON) -m pytest -q python/tests; \
		status=$$?; \
		if [ $$status = 5 ]; then echo "test-python: pytest collected no tests" >&2; fi; \
		exit $$status; \
	fi

# The ASan run comes last so that a CTest summary is the last thing printed.
test: test-format test-fast test-python test-tsan test-valgrind test-fuzz test-web test-asan

# HTML reference of the public headers ($(DOCS_DIR)/html/index.html), when doxygen is installed.
DOCS_DIR ?= build/docs
docs:
	@if command -v doxygen >/dev/null 2>&1; then \
		mkdir -p $(DOCS_DIR) && (cat docs/Doxyfile; echo "OUTPUT_DIRECTORY = $(DOCS_DIR)") | doxygen - && \
		echo "docs: $(DOCS_DIR)/html/index.html"; \
	else \
		echo "docs: doxygen is not installed; install it (Debian/Ubuntu: sudo apt-get install doxygen) and run 'make docs' again" >&2; \
		exit 1; \
	fi

clean:
	rm -rf build build-asan build-tsan build-fuzz build-python
