"""A deterministic English text of about N bytes for the command benchmarks, with a few
misspellings per 1,000 words (words both Hunspell and Harper flag), in paragraphs.
Usage: python3 make_text.py BYTES OUT"""
import random
import sys

WORDS = """the of and to in is was that for it with as his on be at by had are but from or have an which one
you were her all there been when who will more no if out so said what up its about into than them can only
other new some time these two may then do first any my now such like our over man me even most made after
also did many before must through back years where much your way well down because each just those people
how too little state good very make world still own see men work long get here between both life being under
never day same another know while last might us great old year off come since against go came right used
take three house use during without again place around however home small found thought went say part once
general high upon school every number often word write river garden window letter morning evening summer
winter quiet bright simple careful gentle distant ancient modern ordinary curious silver golden wooden paper
table chair bridge mountain valley forest harbor market station village library kitchen question answer
reason moment minute history science music picture journey promise message problem method""".split()
MISSPELLED = ["tomorow", "recieve", "definately", "seperate", "occured", "untill", "adress", "beleive", "wierd", "thier"]


def main():
    size, out = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(7)
    parts, total, words = [], 0, 0
    while total < size:
        sentences = []
        for _ in range(rng.randint(3, 7)):
            chosen = []
            for i in range(rng.randint(6, 20)):
                words += 1
                word = rng.choice(MISSPELLED) if words % 250 == 0 else rng.choice(WORDS)
                chosen.append(word.capitalize() if i == 0 else word)
            sentences.append(" ".join(chosen) + ".")
        paragraph = " ".join(sentences) + "\n\n"
        parts.append(paragraph)
        total += len(paragraph)
    with open(out, "w") as f:
        f.write("".join(parts))


main()
