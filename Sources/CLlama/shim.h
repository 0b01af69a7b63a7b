#ifndef REPLAY_CLLAMA_SHIM_H
#define REPLAY_CLLAMA_SHIM_H
// llama.cpp's C API imports into Swift as it is; the header comes from the cache that
// scripts/setup fills (Package.swift adds its include path). gguf.h reads the tokenizer's merge
// rules, which llama.h does not expose, for the native tokenizer.
#include <llama.h>
#include <gguf.h>
#endif
