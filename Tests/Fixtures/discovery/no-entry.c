/* A shared object that is no plugin: it exports no emend_provider_entry. */
int emend_test_something_else(void) { return 1; }
