"""Words of any alphabet: the rule that makes a word normal, a game's letters and their capitals,
real word lists of other languages (Debian's) built, verified and played, the artifact's keys
(format 1.3) and what a reader refuses in them."""
import sys
import unicodedata
from pathlib import Path

import pytest

from guesstree import player
from guesstree.compiler import Options, build, to_bytes
from guesstree.player.artifact import decode, encode
from guesstree.player.format import FormatError
from guesstree.player.games import make_game
from guesstree.player.letters import AZ, Alphabet, capitals_of, normal_word
from guesstree.player.verify import verify

import debian_words

HERE = Path(__file__).parent


def debian_list(tmp_path: Path, language: str, package: str, step: int) -> Path:
    """Every ``step``-th five-letter word of a Debian word list, as a list file of its own."""
    path = tmp_path / f"{language}.txt"
    path.write_text("".join(w + "\n" for w in debian_words.words_of(language, package)[::step]), encoding="utf-8")
    return path


def test_the_rule_keeps_every_letter_one_code_point():
    """Lower case by code point: no letter of Unicode becomes two (İ's lower case would), and none changes twice."""
    for point in range(sys.maxunicode + 1):
        letter = chr(point)
        if unicodedata.category(letter)[0] in "LM" and unicodedata.normalize("NFC", letter) == letter:
            lowered = normal_word(letter)
            assert len(lowered) == 1 and normal_word(lowered) == lowered, hex(point)


@pytest.mark.parametrize("text, word", [
    ("NIÑO", "niño"), ("nin\u0303o", "niño"),  # decomposed: NFC composes it
    ("ΟΔΟΣ", "οδοσ"),  # per code point: σ, never the final ς that str.lower gives a whole word
    ("İZMİR", "İzmİr"),  # İ's lower case is two code points: it stays
    ("STRAẞE", "straße"), ("Straße", "straße"), ("Київ", "київ"), ("crane", "crane"),
])
def test_a_word_is_made_normal_by_one_rule(text, word):
    assert normal_word(text) == word and len(normal_word(text)) == len(unicodedata.normalize("NFC", text))


def test_capitals_are_distinct_and_never_another_letter():
    assert capitals_of(AZ) == AZ.upper()
    assert capitals_of("nñß") == "NÑß"  # ß's upper case is SS: it shows as itself
    assert capitals_of("ςσ") == "ςΣ"  # Σ is σ's: ς keeps its own form
    assert capitals_of("iı") == "Iı"  # I's lower case is i, not ı
    every = "".join(sorted({normal_word(c) for p in range(0x10000)
                            if unicodedata.category(c := chr(p))[0] == "L" and unicodedata.normalize("NFC", c) == c}))
    shown = capitals_of(every)
    assert len(set(shown)) == len(every)
    assert all(c == letter or c not in every for letter, c in zip(every, shown))


def test_a_game_s_letters_are_those_its_lists_use(tmp_path):
    spanish = tmp_path / "es.txt"
    spanish.write_text("NIÑOS\nmanos\nárbol\nbuzón\n", encoding="utf-8")
    game = make_game("words", answers=str(spanish))
    assert game.alphabet.letters == "abilmnorsuzáñó" and game.symbols == 14
    assert [game.format_code(s) for s in game.secrets] == ["BUZÓN", "MANOS", "NIÑOS", "ÁRBOL"]  # code point order
    assert game.parse_code("niños") == game.parse_code("NIÑOS") == game.parse_code("nin\u0303os")
    with pytest.raises(ValueError, match=r"'niñ0s' is not a word: '0' \(U\+0030 DIGIT ZERO\) is not one of this "
                                         r"game's letters \(a b i l m n o r s u z á ñ ó\)"):
        game.parse_code("niñ0s")
    english = tmp_path / "en.txt"
    english.write_text("crane\nslate\n")
    assert make_game("words", answers=str(english)).alphabet.letters == AZ  # a-z whole: the codes of before


@pytest.mark.parametrize("line, said", [
    ("can-to", r"'can-to' holds '-' \(U\+002D HYPHEN-MINUS\), which is not a letter"),
    ("niñ0s", r"'niñ0s' holds '0' \(U\+0030 DIGIT ZERO\), which is not a letter"),
    ("l'eau", r"\"l'eau\" holds \"'\" \(U\+0027 APOSTROPHE\), which is not a letter"),
    ("é\u00a0tés", r"'é\\xa0tés' holds '\\xa0' \(U\+00A0 NO-BREAK SPACE\), which is not a letter"),
])
def test_a_character_that_is_no_letter_is_refused_by_file_line_and_name(tmp_path, line, said):
    path = tmp_path / "list.txt"
    path.write_text(f"niños\n{line}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"list.txt, line 2: {said}"):
        make_game("words", answers=str(path), length=None).secret_count()


def played_everywhere(tree) -> None:
    """Every secret's path, replayed by the game's own score: the tree's guesses, shown and read back."""
    game = tree.game
    for secret in game.secrets:
        history = []
        while True:
            guess = tree.next_guess(history)
            assert game.parse_code(game.format_code(guess)) == guess
            feedback = game.score(guess, secret)
            history.append((guess, feedback))
            if feedback == game.win:
                break


@pytest.mark.parametrize("language, package, step", [("spanish", "wspanish", 12), ("ukrainian", "wukrainian", 60),
                                                     ("ngerman", "wngerman", 6), ("bulgarian", "wbulgarian", 30)])
def test_a_list_of_another_language_is_built_verified_and_played(tmp_path, language, package, step):
    answers = debian_list(tmp_path, language, package, step)
    game = make_game("words", answers=str(answers))
    assert not game.alphabet.is_az
    data = to_bytes(build(game, Options("entropy")))
    header, _ = decode(data)
    assert header["version"] == [1, 3]
    assert header["game"]["params"]["alphabet"] == game.alphabet.letters
    tree = player.loads(data)
    report = verify(tree)
    assert report.ok, report.errors
    played_everywhere(tree)
    assert tree.game.alphabet.capitals == game.alphabet.capitals


def test_the_cyrillic_copy_of_a_list_builds_the_same_tree(tmp_path):
    """Letters renamed in their order are the same game: the same codes, the same body, the search's optimum too."""
    english = (HERE / "data" / "words-small.txt").read_text().split()
    cyrillic = "абвгдежзийклмнопрстуфхцчшщ"
    renamed = [w.translate(str.maketrans(AZ, cyrillic)) for w in english]
    (tmp_path / "en.txt").write_text("\n".join(english) + "\n")
    (tmp_path / "ru.txt").write_text("\n".join(renamed) + "\n", encoding="utf-8")
    for options in (Options("entropy"), Options("optimal-expected"), Options("most-parts")):
        en = to_bytes(build(make_game("words", answers=str(tmp_path / "en.txt"), hard=True), options))
        ru = to_bytes(build(make_game("words", answers=str(tmp_path / "ru.txt"), hard=True), options))
        (en_header, en_body), (ru_header, ru_body) = decode(en), decode(ru)
        assert en_header["stats"] == ru_header["stats"]
        assert {k: v for k, v in en_body.items() if k != "guess"} == {k: v for k, v in ru_body.items() if k != "guess"}
        en_letters, ru_letters = en_header["game"]["params"].get("alphabet", AZ), ru_header["game"]["params"]["alphabet"]
        back = str.maketrans(cyrillic, AZ)
        assert [en_letters[c] for c in en_body["guess"]] == [ru_letters[c].translate(back) for c in ru_body["guess"]]
        letters = ru_header["game"]["params"]["alphabet"]
        assert ru_header["game"]["params"]["capitals"] == letters.upper() and set(letters) <= set(cyrillic)


def test_the_commands_take_the_game_s_letters(tmp_path, cli):
    answers = tmp_path / "es.txt"
    answers.write_text("niños\nmanos\nárbol\nbuzón\ncañas\nmañas\n", encoding="utf-8")
    tree = tmp_path / "es.msgpack.zst"
    built = cli("compile", "words", "--answers", str(answers), "--strategy", "entropy", "-o", str(tree))
    assert built.exit_code == 0, built.output
    solved = cli("solve", str(tree), "mañas")
    assert solved.exit_code == 0 and "solved MAÑAS" in solved.stdout
    first = player.load(tree).next_guess([])
    game = player.load(tree).game
    secret = game.parse_code("cañas")
    marks = game.format_feedback(game.score(first, secret))
    told = cli("next", str(tree), "--", game.format_code(first).lower(), marks)
    assert told.exit_code == 0, told.output
    refused = cli("next", str(tree), "--", "ni9os", "-----")
    assert refused.exit_code != 0 and "'9' (U+0039 DIGIT NINE) is not one of this game's letters" in refused.output
    assert cli("verify", str(tree)).exit_code == 0


def hostile(data: bytes, **params) -> bytes:
    """The artifact with its game's parameters changed (None: removed)."""
    header, body = decode(data)
    header.pop("body_sha256", None)
    game = header["game"]
    game["params"] = {k: v for k, v in {**game["params"], **params}.items() if v is not None}
    return encode(header, body)


@pytest.fixture(scope="module")
def spanish_tree(tmp_path_factory):
    answers = tmp_path_factory.mktemp("es") / "es.txt"
    answers.write_text("niños\nmanos\nárbol\nbuzón\n", encoding="utf-8")
    return to_bytes(build(make_game("words", answers=str(answers)), Options("entropy")))


@pytest.mark.parametrize("params, said", [
    ({"alphabet": None, "capitals": None}, "answer_words is not a sorted list of distinct words of 5 letters a-z"),
    ({"capitals": None}, "alphabet and capitals must both be text"),
    ({"alphabet": "abilmnorsuzáóñ"}, "in code point order"),
    ({"alphabet": "abilmnorsuzzáñó"}, "distinct letters"),
    ({"alphabet": "abilmnorsuz×áñó", "capitals": "ABILMNORSUZ×ÁÑÓ"}, r"'×' \(U\+00D7 MULTIPLICATION SIGN\), which is not a letter"),
    ({"alphabet": "Nabilmorsuzáñó", "capitals": "NABILMORSUZÁÑÓ"}, "not a letter in lower case"),
    ({"capitals": "ABILMNORSUZÁÑ"}, "one distinct letter for each letter"),
    ({"capitals": "ABILMNORSUZÁÑÑ"}, "one distinct letter for each letter"),
    ({"capitals": "ABILMNORSUZñÑÓ"}, "a capital is another letter of the alphabet"),
    ({"alphabet": "abilmnorsuzáñ", "capitals": "ABILMNORSUZÁÑ"}, "answer_words is not a sorted list"),  # ó gone
    ({"alphabet": "".join(chr(0x4E00 + i) for i in range(256)), "capitals": "".join(chr(0x4E00 + i) for i in range(256))},
     "1 to 255 distinct letters"),
])
def test_a_reader_refuses_a_damaged_alphabet(spanish_tree, params, said):
    with pytest.raises(FormatError, match=said):
        player.loads(hostile(spanish_tree, **params))


def test_an_a_z_tree_carries_no_alphabet_and_an_added_one_is_refused(tmp_path):
    path = tmp_path / "en.txt"
    path.write_text("crane\nslate\ntrace\n")
    data = to_bytes(build(make_game("words", answers=str(path)), Options("entropy")))
    header, _ = decode(data)
    assert header["version"] == [1, 1] and "alphabet" not in header["game"]["params"]
    with pytest.raises(FormatError, match="does not take alphabet="):
        player.loads(hostile(data, alphabet=AZ, capitals=AZ.upper()))


def test_a_chunked_tree_of_another_alphabet_is_2_1(tmp_path):
    from guesstree.compiler import save

    answers = tmp_path / "es.txt"
    answers.write_text("niños\nmanos\nárbol\nbuzón\n", encoding="utf-8")
    path = save(build(make_game("words", answers=str(answers)), Options("entropy")), tmp_path / "t.msgpack.zst",
                chunked=True)
    tree = player.load(path)
    assert tree.header["version"] == [2, 1] and tree.game.alphabet.letters == "abilmnorsuzáñó"
    assert verify(tree).ok


def test_an_alphabet_given_must_hold_the_lists_letters(tmp_path):
    answers = tmp_path / "es.txt"
    answers.write_text("niños\nmanos\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"the word lists use 'ñ' \(U\+00F1"):
        _ = make_game("words", answers=str(answers), alphabet="aimnos", capitals="AIMNOS").secrets
    given = make_game("words", answers=str(answers), alphabet="aimnosñ", capitals="AIMNOSÑ")
    assert Alphabet("aimnosñ").capitals == "AIMNOSÑ" and given.format_code(given.secrets[1]) == "NIÑOS"


def test_lists_of_more_letters_than_a_code_holds_are_refused(tmp_path):
    path = tmp_path / "han.txt"
    path.write_text("".join(chr(0x4E00 + i) * 2 + "\n" for i in range(256)), encoding="utf-8")
    with pytest.raises(ValueError, match="the word lists use 256 different letters; a game takes at most 255"):
        _ = make_game("words", answers=str(path)).secrets
    path.write_text("".join(chr(0x4E00 + i) * 2 + "\n" for i in range(255)), encoding="utf-8")
    assert make_game("words", answers=str(path)).symbols == 255
