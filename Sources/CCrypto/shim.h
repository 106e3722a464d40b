#ifndef NEWSSTAND_CCRYPTO_SHIM_H
#define NEWSSTAND_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#endif
