/// EmendProviders: provider plugins found at run time — discovery, the scanner process, the
/// registry cache, loading with dlopen, the libffi simple form, and selection per tool.
enum ProvidersModule {}
