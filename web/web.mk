# The WebAssembly build (run by `make web` from the repository root): the CPU library (no GL),
# Debian's cJSON source and web/ossa_web.c compiled with Debian's emscripten into
# $(OUT)/ossa.js + ossa.wasm, next to the page's files. Serve $(OUT) with any static server.
OUT      ?= build-web
CJSON    ?= $(OUT)/cjson
EMCC     ?= emcc
# Debian's emcc runs its optimiser under node and needs acorn, which Debian installs there.
export NODE_PATH := /usr/share/nodejs$(if $(NODE_PATH),:$(NODE_PATH))

LIB_SOURCES := $(sort $(wildcard src/io/*.c src/rig/*.c src/clip/*.c src/model/*.c src/anim/*.c \
	src/pose/*.c src/skin/*.c src/ik/*.c src/demo/*.c))
OBJECTS := $(patsubst src/%.c,$(OUT)/obj/%.o,$(LIB_SOURCES)) $(OUT)/obj/web/ossa_web.o \
	$(OUT)/obj/cjson/cJSON.o
PAGE := $(addprefix $(OUT)/,index.html viewer.css main.js ossa_core.js renderer.js)

# The project's warning rules apply to its own files; cJSON is compiled as Debian ships it.
CFLAGS_COMMON := -std=c11 -O2 -I include -I src -I $(CJSON)
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
	$(EMCC) $(LDFLAGS) $(OBJECTS) -o $@

$(OUT)/obj/%.o: src/%.c $(CJSON)/cJSON.c
	@mkdir -p $(dir $@)
	$(EMCC) $(CFLAGS_OSSA) -c $< -o $@

$(OUT)/obj/web/ossa_web.o: web/ossa_web.c $(CJSON)/cJSON.c
	@mkdir -p $(dir $@)
	$(EMCC) $(CFLAGS_OSSA) -c $< -o $@

$(OUT)/obj/cjson/cJSON.o: $(CJSON)/cJSON.c
	@mkdir -p $(dir $@)
	$(EMCC) $(CFLAGS_COMMON) -I $(CJSON)/cjson -c $< -o $@

$(CJSON)/cJSON.c:
	sh scripts/install-web-deps.sh $(CJSON)

$(OUT)/%: web/%
	@mkdir -p $(OUT)
	cp $< $@

.PHONY: all
