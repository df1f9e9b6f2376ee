/* Exposes include/ (the C contract) to the Swift targets; no code of its own. */
