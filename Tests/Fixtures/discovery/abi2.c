/* A plugin built for a provider ABI this host does not speak (version 2). */
#define PLUGIN_ID "org.test.abi2"
#undef EMEND_PROVIDER_ABI_VERSION
#include "emend_provider.h"
#undef EMEND_PROVIDER_ABI_VERSION
#define EMEND_PROVIDER_ABI_VERSION 2
#include "good.c"
