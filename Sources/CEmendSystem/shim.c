/* Exposes emend_system.h to Swift; no code of its own. */
