/*
 * quick.h — the quick view of a dictionary: its .aff file with MAXNGRAMSUGS 0, so that
 * Hunspell_suggest tries only its edits of the word (the REP table, a letter missing, extra,
 * wrong or swapped, a word cut in two) and skips the n-gram scan of every word of the
 * dictionary. Why: with Hunspell 1.7.1 (Debian 12) the scan runs even when the edits found
 * the word, and it is 90–95% of a suggestion's cost (20–40 ms of CPU per en_US word against
 * 1–4 ms for the edits), which an editor pays at each new misspelling typed. Newer Hunspell
 * (the "found nothing good" rule of hunspell.cxx) scans only when the edits found nothing;
 * dictionary_suggest does the same with two handles, the quick one first.
 */
#ifndef EMEND_HUNSPELL_QUICK_H
#define EMEND_HUNSPELL_QUICK_H

#include <stddef.h>

/* Copies `aff` without its MAXNGRAMSUGS lines and with "MAXNGRAMSUGS 0" at the end into an
 * anonymous file (memfd), and writes a path Hunspell_create can open into `path`
 * ("/proc/self/fd/N"). Returns the descriptor, to close once Hunspell_create has read the
 * file, or -1 when the copy cannot be made (no such file, a compressed .aff.hz, no memfd):
 * then the dictionary has one handle and suggests as Hunspell does. */
int quick_affix_file(const char *aff, char *path, size_t size);

#endif /* EMEND_HUNSPELL_QUICK_H */
