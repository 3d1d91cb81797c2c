# The WebAssembly build (run by `make web` from the repository root): the CPU library (no GL),
# Debian's cJSON and meshoptimizer sources (scripts/install-web-deps.sh fetches them into $(DEPS))
# and web/ossa_web.c compiled with Debian's emscripten into $(OUT)/ossa.js + ossa.wasm, next to
# the page's files. Serve $(OUT) with any static server.
OUT      ?= build-web
DEPS     ?= $(OUT)/deps
CJSON    := $(DEPS)/cjson
MESHOPT  := $(DEPS)/meshoptimizer
# jsmn is one header (Debian's libjsmn-dev, installed by scripts/install-deps.sh): a copy of it
# on its own, so that emcc does not see the rest of the host's /usr/include.
JSMN     := $(DEPS)/jsmn
EMCC     ?= emcc
EMXX     ?= em++
# Debian's emcc runs its optimiser under node and needs acorn, which Debian installs there.
export NODE_PATH := /usr/share/nodejs$(if $(NODE_PATH),:$(NODE_PATH))

# The CPU library: every layer under src/ but the OpenGL one (as CMakeLists.txt's OSSA_SOURCES).
LIB_SOURCES := $(sort $(filter-out src/gpu/%,$(wildcard src/*/*.c)))
# meshoptimizer: only the decoders that EXT_meshopt_compression needs (src/io/meshopt.c).
MESHOPT_OBJECTS := $(addprefix $(OUT)/obj/meshoptimizer/,vertexcodec.o indexcodec.o vertexfilter.o)
OBJECTS := $(patsubst src/%.c,$(OUT)/obj/%.o,$(LIB_SOURCES)) $(OUT)/obj/web/ossa_web.o \
	$(OUT)/obj/cjson/cJSON.o $(MESHOPT_OBJECTS)
PAGE := $(addprefix $(OUT)/,index.html viewer.css main.js ossa_core.js renderer.js)

# The project's warning rules apply to its own files; cJSON and meshoptimizer are compiled as
# Debian ships them.
CFLAGS_COMMON := -std=c11 -O2 -MMD -MP -I include -I src -I $(CJSON) -I $(MESHOPT) -isystem $(JSMN)
CFLAGS_OSSA   := $(CFLAGS_COMMON) -Wall -Wextra -Wpedantic -Werror
# What JavaScript calls: the glue (web/ossa_web.c, all web_*) and the runtime API it reads.
EXPORTS := malloc free ossa_result_name ossa_model_file ossa_model_clip_count ossa_model_clip \
	ossa_clip_name ossa_clip_start ossa_clip_end ossa_clip_duration ossa_clip_time \
	ossa_model_primitive_count ossa_character_world ossa_character_palette ossa_character_weights
comma := ,
empty :=
space := $(empty) $(empty)
LDFLAGS := -O2 -sMODULARIZE=1 -sEXPORT_NAME=createOssa -sENVIRONMENT=web,node \
	-sALLOW_MEMORY_GROWTH=1 -sFORCE_FILESYSTEM=1 -sEXPORTED_FUNCTIONS=$(subst $(space),$(comma),$(addprefix _,$(EXPORTS))) \
	-sEXPORTED_RUNTIME_METHODS=FS,ccall,cwrap,UTF8ToString

all: $(OUT)/ossa.js $(PAGE)

$(OUT)/ossa.js: $(OBJECTS) web/web.mk
	@echo "web: linking $@"
	@$(EMXX) $(LDFLAGS) $(OBJECTS) -o $@

$(OUT)/obj/%.o: src/%.c $(CJSON)/cJSON.c $(JSMN)/jsmn.h
	@mkdir -p $(dir $@)
	@echo "web: compiling $<"
	@$(EMCC) $(CFLAGS_OSSA) -c $< -o $@

$(OUT)/obj/web/ossa_web.o: web/ossa_web.c $(CJSON)/cJSON.c
	@mkdir -p $(dir $@)
	@echo "web: compiling $<"
	@$(EMCC) $(CFLAGS_OSSA) -c $< -o $@

$(OUT)/obj/cjson/cJSON.o: $(CJSON)/cJSON.c
	@mkdir -p $(dir $@)
	@echo "web: compiling $<"
	@$(EMCC) $(CFLAGS_COMMON) -I $(CJSON)/cjson -c $< -o $@

$(OUT)/obj/meshoptimizer/%.o: $(MESHOPT)/%.cpp
	@mkdir -p $(dir $@)
	@echo "web: compiling $<"
	@$(EMXX) -std=c++11 -O2 -c $< -o $@

$(CJSON)/cJSON.c:
	sh scripts/install-web-deps.sh $(DEPS)

$(MESHOPT)/%.cpp:
	sh scripts/install-web-deps.sh $(DEPS)

$(JSMN)/jsmn.h: /usr/include/jsmn.h
	@mkdir -p $(JSMN)
	@cp $< $@

$(OUT)/%: web/%
	@mkdir -p $(OUT)
	@cp $< $@

# Header dependencies written by -MMD: a changed header recompiles what includes it.
-include $(OBJECTS:.o=.d)

.PHONY: all
