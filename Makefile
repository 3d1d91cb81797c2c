# Entry points named in README.md. Each installs missing Debian packages first.
#   make demo   build and run the main job (MODEL=path to use another model)
#   make test   build and run every test suite, normal and under ASan+UBSan
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)
MODEL  ?= ../shared/models/Fox/Fox.glb
CMAKE_FLAGS ?= -DOSSA_WERROR=ON

.PHONY: all deps build build-asan demo test test-fast test-asan docs clean

all: build

deps:
	@sh scripts/install-deps.sh

build: deps
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build build -j $(JOBS)

build-asan: deps
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DOSSA_SANITIZE=address,undefined $(CMAKE_FLAGS) >/dev/null
	@cmake --build build-asan -j $(JOBS)

demo: build
	./build/ossa info "$(MODEL)"

test-fast: build
	cd build && ctest --output-on-failure -j $(JOBS)

test-asan: build-asan
	cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j $(JOBS) -LE no-sanitizer

test: test-fast test-asan

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
	rm -rf build build-asan
