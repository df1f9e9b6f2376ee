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

#include <hunspell.h>

/* Copies `aff` without its MAXNGRAMSUGS lines and with "MAXNGRAMSUGS 0" at the end into an
 * anonymous file (memfd), and writes a path Hunspell_create can open into `path`
 * ("/proc/self/fd/N"). Returns the descriptor, to close once Hunspell_create has read the
 * file, or -1 when the copy cannot be made (no such file, a compressed .aff.hz, no memfd):
 * then the dictionary has one handle and suggests as Hunspell does. */
int quick_affix_file(const char *aff, char *path, size_t size);

/* Why a handle Hunspell_create made from the quick .aff copy and `dic` cannot serve as the
 * quick view, or NULL when it can. Hunspell_create does not fail: an .aff it cannot open
 * (/proc/self/fd hidden from the process) or stops reading early (an error in it) leaves a
 * handle that scans anyway, and a .dic it cannot read leaves one without words. So the handle
 * is asked what it does, with a probe word from the .dic (the first entry of 6 to 8 bytes, not
 * capitalized, without flags, else with): it must know the word, and must suggest nothing for the word with
 * "zqj" added, which no edit of Hunspell's mends and its n-gram scan would (the word). Costs
 * Hunspell's edits for one word, 1–2 ms; a .dic without such an entry is not probed. */
const char *quick_view_fault(Hunhandle *handle, const char *dic);

#endif /* EMEND_HUNSPELL_QUICK_H */
