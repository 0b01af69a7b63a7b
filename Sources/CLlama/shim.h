#ifndef REPLAY_CLLAMA_SHIM_H
#define REPLAY_CLLAMA_SHIM_H
// llama.cpp's C API imports into Swift as it is; the header comes from the cache that
// scripts/setup fills (Package.swift adds its include path).
#include <llama.h>
#endif
