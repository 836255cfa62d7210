"""Writes the card pictures (SVG) of every game into its presentation package.

The shapes are drawn here by hand (no downloaded or copied art): one small, flat picture per
card kind, 60x84 units, for chips as small as 2.5 rem on a 360 px phone. Any text in a
picture is dark on a light ground and checked for WCAG AA (4.5:1) before it is written.
Run: ``.venv/bin/python scripts/card_art.py`` (it rewrites the files; commit the result).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "games" / "catalog"
SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 84">{}</svg>\n'
FONT = 'font-family="system-ui,sans-serif" font-weight="700" text-anchor="middle"'


def _lum(hex_colour: str) -> float:
    rgb = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((_lum(a), _lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def frame(bg: str, edge: str, inner: str = "", dashed: bool = False) -> str:
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    return (
        f'<rect x="1.5" y="1.5" width="57" height="81" rx="6" fill="{bg}" stroke="{edge}"'
        f' stroke-width="3"{dash}/>{inner}'
    )


def text(x: float, y: float, size: float, ink: str, bg: str, words: str) -> str:
    assert contrast(ink, bg) >= 4.5, (ink, bg, contrast(ink, bg))
    return f'<text x="{x}" y="{y}" font-size="{size}" fill="{ink}" {FONT}>{words}</text>'


def legs(x: float, ys: tuple[float, ...], reach: float, ink: str, width: float = 2) -> str:
    out = ""
    for y in ys:
        out += f'<path d="M{x - 4} {y}l-{reach} {-3}M{x + 4} {y}l{reach} {-3}" stroke="{ink}" stroke-width="{width}" stroke-linecap="round"/>'
    return out


# --- creatures (drawn around the centre 30,44) ---
def cockroach(c: str = "#6d4c41") -> str:
    return (
        '<path d="M27 24q-6-10-14-12M33 24q6-10 14-12" stroke="#3e2723" stroke-width="1.6" fill="none"/>'
        + legs(30, (36, 44, 52), 11, "#3e2723")
        + f'<ellipse cx="30" cy="46" rx="10" ry="17" fill="{c}"/>'
        + '<circle cx="30" cy="27" r="6" fill="#3e2723"/>'
        + '<path d="M30 31v31" stroke="#3e2723" stroke-width="1.2"/>'
    )


def stink_bug() -> str:
    return (
        '<path d="M27 25l-6-9M33 25l6-9" stroke="#33691e" stroke-width="2" stroke-linecap="round"/>'
        + legs(30, (36, 46, 54), 10, "#33691e")
        + '<path d="M16 32h28l-3 18-11 12-11-12z" fill="#7cb342" stroke="#33691e" stroke-width="2"/>'
        + '<path d="M22 32l8 14 8-14" fill="#9ccc65"/>'
        + '<circle cx="30" cy="27" r="5" fill="#33691e"/>'
    )


def rat() -> str:
    return (
        '<path d="M44 52q12 4 8 16q-3 6-10 4" stroke="#d48c8c" stroke-width="2.2" fill="none"/>'
        + '<ellipse cx="32" cy="48" rx="14" ry="10" fill="#78909c"/>'
        + '<path d="M20 42l-12 6 12 6z" fill="#78909c"/>'
        + '<circle cx="20" cy="38" r="5" fill="#90a4ae" stroke="#546e7a"/>'
        + '<circle cx="16" cy="45" r="1.6" fill="#1d2330"/><circle cx="8" cy="48" r="1.6" fill="#d48c8c"/>'
    )


def fly() -> str:
    return (
        '<ellipse cx="19" cy="38" rx="10" ry="15" transform="rotate(-30 19 38)" fill="#b3e5fc" stroke="#0277bd" stroke-width="1.5"/>'
        + '<ellipse cx="41" cy="38" rx="10" ry="15" transform="rotate(30 41 38)" fill="#b3e5fc" stroke="#0277bd" stroke-width="1.5"/>'
        + legs(30, (48, 54), 8, "#263238", 1.5)
        + '<ellipse cx="30" cy="52" rx="7" ry="11" fill="#37474f"/>'
        + '<circle cx="30" cy="38" r="6" fill="#37474f"/>'
        + '<circle cx="26.5" cy="36" r="2.6" fill="#e53935"/><circle cx="33.5" cy="36" r="2.6" fill="#e53935"/>'
    )


def bat() -> str:
    return (
        '<path d="M30 40q-10-8-24-4 6 6 4 14 6-4 10 2 4-6 10-2zM30 40q10-8 24-4-6 6-4 14-6-4-10 2-4-6-10-2z" fill="#5e35b1"/>'
        + '<ellipse cx="30" cy="46" rx="5" ry="9" fill="#311b92"/>'
        + '<path d="M26 36l1-6 3 4 3-4 1 6z" fill="#311b92"/>'
        + '<circle cx="28" cy="38" r="1" fill="#fff"/><circle cx="32" cy="38" r="1" fill="#fff"/>'
    )


def toad() -> str:
    return (
        '<path d="M12 60q-4-4 2-6M48 60q4-4-2-6" stroke="#1b5e20" stroke-width="3" fill="none" stroke-linecap="round"/>'
        + '<ellipse cx="30" cy="50" rx="20" ry="13" fill="#2e7d32"/>'
        + '<circle cx="21" cy="38" r="6" fill="#2e7d32"/><circle cx="39" cy="38" r="6" fill="#2e7d32"/>'
        + '<circle cx="21" cy="37" r="3" fill="#fff59d"/><circle cx="39" cy="37" r="3" fill="#fff59d"/>'
        + '<circle cx="21" cy="37" r="1.4" fill="#1d2330"/><circle cx="39" cy="37" r="1.4" fill="#1d2330"/>'
        + '<path d="M20 51q10 6 20 0" stroke="#1b5e20" stroke-width="1.8" fill="none"/>'
        + '<circle cx="26" cy="58" r="1.6" fill="#66bb6a"/><circle cx="35" cy="57" r="1.6" fill="#66bb6a"/>'
    )


def scorpion() -> str:
    return (
        '<path d="M30 58q0 10 12 8q10-3 6-16q-2-6-8-6" stroke="#e65100" stroke-width="4" fill="none" stroke-linecap="round"/>'
        + '<path d="M40 44l-3 5 6-1z" fill="#bf360c"/>'
        + '<path d="M24 34q-10-2-12-10M36 34q10-2 12-10" stroke="#e65100" stroke-width="3" fill="none"/>'
        + '<path d="M8 22l6-4 2 6zM52 22l-6-4-2 6z" fill="#bf360c"/>'
        + legs(30, (42, 48, 54), 9, "#bf360c", 1.6)
        + '<ellipse cx="30" cy="46" rx="7" ry="13" fill="#ef6c00"/>'
        + '<circle cx="30" cy="33" r="5" fill="#bf360c"/>'
    )


CREATURES = {
    "cockroach": cockroach,
    "stink_bug": stink_bug,
    "rat": rat,
    "fly": fly,
    "bat": bat,
    "toad": toad,
    "scorpion": scorpion,
}
CROWN = '<path d="M16 16l4-10 6 6 4-8 4 8 6-6 4 10z" fill="#c9a227" stroke="#7a5c00" stroke-width="1.2"/>'


def back(base: str, mark: str) -> str:
    return (
        f'<rect x="1.5" y="1.5" width="57" height="81" rx="6" fill="{base}" stroke="#1d2330" stroke-width="3"/>'
        + '<rect x="7" y="7" width="46" height="70" rx="4" fill="none" stroke="#fff" stroke-opacity=".6" stroke-width="1.5"/>'
        + mark
    )


def cockroach_poker() -> dict[str, str]:
    files = {}
    for species, draw in CREATURES.items():
        files[species] = frame("#ffffff", "#9aa3b2", draw())
        files[f"royal_{species}"] = frame("#fff8dc", "#c9a227", CROWN + draw())
    colours = ["#6d4c41", "#7cb342", "#78909c", "#29b6f6", "#5e35b1", "#2e7d32", "#e65100"]
    dots = "".join(
        f'<circle cx="{30 + 16 * x:.1f}" cy="{44 + 16 * y:.1f}" r="5" fill="{c}"/>'
        for c, (x, y) in zip(
            colours,
            [
                (0, -1),
                (0.78, -0.62),
                (0.97, 0.22),
                (0.43, 0.9),
                (-0.43, 0.9),
                (-0.97, 0.22),
                (-0.78, -0.62),
            ],
            strict=True,
        )
    )
    star = '<path d="M30 34l3 7h7l-6 4 2 7-6-4-6 4 2-7-6-4h7z" fill="#d81b60"/>'
    files["joker"] = frame("#ffffff", "#d81b60", dots + star)
    files["blank"] = frame(
        "#ffffff",
        "#757575",
        '<rect x="12" y="16" width="36" height="52" rx="4" fill="none" stroke="#9e9e9e" stroke-width="2" stroke-dasharray="4 3"/>',
    )
    roach = (
        '<g transform="translate(15 21) scale(.5)" opacity=".9">'
        + cockroach("#efebe9").replace("#3e2723", "#d7ccc8")
        + "</g>"
    )
    files["back"] = back("#4e342e", roach)
    return files


# --- Mogel Motte ---
VALUE_COLOURS = {  # (ink, ground): both pass 4.5:1
    1: ("#b71c1c", "#fdecea"),
    2: ("#8a3a00", "#fff3e0"),
    3: ("#1b5e20", "#e8f5e9"),
    4: ("#0d47a1", "#e3f2fd"),
    5: ("#6a1b9a", "#f3e5f5"),
}


def ant() -> str:
    return (
        '<path d="M24 22l-6-8M28 22l2-9" stroke="#3e2723" stroke-width="1.6" fill="none"/>'
        + legs(30, (40, 44, 48), 12, "#3e2723", 1.8)
        + '<circle cx="26" cy="26" r="6" fill="#5d4037"/><ellipse cx="29" cy="42" rx="5" ry="7" fill="#5d4037"/>'
        + '<ellipse cx="32" cy="60" rx="9" ry="11" fill="#5d4037"/>'
    )


def spider() -> str:
    out = ""
    for i, y in enumerate((34, 40, 46, 52)):
        d = 6 - i * 2
        out += f'<path d="M30 {y}q-10 {d - 8} -18 {d + 4}M30 {y}q10 {d - 8} 18 {d + 4}" stroke="#263238" stroke-width="2" fill="none"/>'
    return (
        '<path d="M30 4v26" stroke="#90a4ae" stroke-width="1"/>'
        + out
        + '<circle cx="30" cy="36" r="6" fill="#37474f"/><ellipse cx="30" cy="50" rx="9" ry="10" fill="#37474f"/>'
        + '<path d="M26 47h8M30 43v10" stroke="#e53935" stroke-width="2"/>'
    )


def mosquito() -> str:
    return (
        '<ellipse cx="20" cy="36" rx="6" ry="14" transform="rotate(-40 20 36)" fill="#e0f2f1" stroke="#00796b"/>'
        + '<ellipse cx="40" cy="36" rx="6" ry="14" transform="rotate(40 40 36)" fill="#e0f2f1" stroke="#00796b"/>'
        + '<path d="M28 46l-14 16-2 8M32 46l14 16 2 8M29 48l-8 24M31 48l8 24" stroke="#004d40" stroke-width="1.3" fill="none"/>'
        + '<path d="M30 30l-8 -16" stroke="#004d40" stroke-width="1.5"/>'
        + '<ellipse cx="30" cy="48" rx="3.5" ry="12" fill="#00695c"/><circle cx="30" cy="33" r="4" fill="#004d40"/>'
    )


def moth() -> str:
    return (
        '<path d="M30 40q-18-20-24-8-2 12 24 14zM30 40q18-20 24-8 2 12-24 14z" fill="#ab47bc" stroke="#6a1b9a"/>'
        + '<path d="M30 46q-14 4-14 14 6 4 14-8zM30 46q14 4 14 14-6 4-14-8z" fill="#ce93d8" stroke="#6a1b9a"/>'
        + '<circle cx="17" cy="36" r="3" fill="#f3e5f5"/><circle cx="43" cy="36" r="3" fill="#f3e5f5"/>'
        + '<ellipse cx="30" cy="46" rx="3.5" ry="12" fill="#4a148c"/>'
        + '<path d="M28 34q-4-10-9-12M32 34q4-10 9-12" stroke="#4a148c" stroke-width="1.4" fill="none"/>'
        # the cheat's mask
        + '<path d="M24 35h12v4h-12z" fill="#1d2330"/>'
    )


def guard() -> str:
    return (
        legs(30, (44, 52, 60), 11, "#1a237e")
        + '<ellipse cx="30" cy="50" rx="13" ry="16" fill="#3949ab"/>'
        + '<path d="M30 34v32" stroke="#1a237e" stroke-width="1.5"/>'
        + '<circle cx="30" cy="30" r="7" fill="#1a237e"/>'
        + '<path d="M21 25h18l-2-7h-14z" fill="#1a237e"/><rect x="20" y="24" width="20" height="3" fill="#ffd54f"/>'
        + '<path d="M30 44l2.4 5h5l-4 3.4 1.6 5-5-3-5 3 1.6-5-4-3.4h5z" fill="#ffd54f"/>'
    )


def mogel_motte() -> dict[str, str]:
    files = {}
    for v, (ink, ground) in VALUE_COLOURS.items():
        files[f"number_{v}"] = frame(
            ground,
            ink,
            text(30, 58, 40, ink, ground, str(v))
            + text(11, 17, 12, ink, ground, str(v))
            + text(49, 79, 12, ink, ground, str(v)),
        )
    files["ant"] = frame("#efebe9", "#5d4037", ant())
    files["spider"] = frame("#eceff1", "#37474f", spider())
    files["cockroach"] = frame("#efebe9", "#6d4c41", cockroach())
    files["mosquito"] = frame("#e0f2f1", "#00796b", mosquito())
    files["moth"] = frame("#faf5fc", "#6a1b9a", moth(), dashed=True)
    files["guard"] = frame("#fff8e1", "#1a237e", guard())
    files["back"] = back("#4a148c", '<g transform="translate(15 21) scale(.5)">' + moth() + "</g>")
    return files


# --- Imperador ---
BAND_COLOURS = {  # (ink, ground), one per band of two values
    1: ("#b71c1c", "#fdecea"),
    2: ("#8a3a00", "#fff3e0"),
    3: ("#1b5e20", "#e8f5e9"),
    4: ("#0d47a1", "#e3f2fd"),
    5: ("#6a1b9a", "#f3e5f5"),
    6: ("#4e342e", "#efebe9"),
}
OBJECTS = {  # band -> a distinct object
    1: '<path d="M20 24h20q0 16-10 18-10-2-10-18zM30 42v12M22 58h16" stroke="{i}" stroke-width="3" fill="{g}" stroke-linejoin="round"/>',  # goblet
    2: '<path d="M24 20h12l-2 6q10 6 8 20-2 12-12 12t-12-12q-2-14 8-20z" fill="{g}" stroke="{i}" stroke-width="3"/><path d="M21 38h18" stroke="{i}" stroke-width="2"/>',  # vase
    3: '<rect x="14" y="30" width="32" height="22" rx="2" fill="{g}" stroke="{i}" stroke-width="3"/><path d="M14 30q16-14 32 0M28 38h4v6h-4z" stroke="{i}" stroke-width="2.5" fill="{i}"/>',  # chest
    4: '<rect x="18" y="18" width="24" height="36" rx="3" fill="{g}" stroke="{i}" stroke-width="3"/><path d="M14 18h32M14 54h32" stroke="{i}" stroke-width="4" stroke-linecap="round"/><path d="M24 28h12M24 34h12M24 40h8" stroke="{i}" stroke-width="1.5"/>',  # scroll
    5: '<circle cx="30" cy="42" r="12" fill="none" stroke="{i}" stroke-width="4"/><path d="M24 26l6-8 6 8z" fill="{i}"/>',  # ring
    6: '<circle cx="30" cy="36" r="14" fill="{g}" stroke="{i}" stroke-width="3"/><path d="M30 26v10l6 4" stroke="{i}" stroke-width="2.5" fill="none"/><path d="M22 52l-3 5M38 52l3 5" stroke="{i}" stroke-width="3"/>',  # clock
}


def sheep() -> str:
    wool = "".join(
        f'<circle cx="{x}" cy="{y}" r="7" fill="#fff" stroke="#9e9e9e"/>'
        for x, y in ((22, 40), (30, 36), (38, 40), (22, 50), (30, 52), (38, 50), (30, 44))
    )
    return (
        '<path d="M22 56v10M28 56v10M34 56v10M40 56v10" stroke="#37474f" stroke-width="3"/>'
        + wool
        + '<ellipse cx="14" cy="38" rx="5" ry="7" fill="#37474f"/><circle cx="12.5" cy="36" r="1" fill="#fff"/>'
    )


def fox() -> str:
    return (
        '<path d="M14 20l8 14h16l8-14-4 20-12 22-12-22z" fill="#e65100"/>'
        + '<path d="M18 40l12 22 12-22-12 6z" fill="#fff3e0"/>'
        + '<circle cx="24" cy="40" r="2" fill="#1d2330"/><circle cx="36" cy="40" r="2" fill="#1d2330"/>'
        + '<path d="M28 58h4l-2 4z" fill="#1d2330"/>'
    )


def emperor() -> str:
    laurel = "".join(
        f'<ellipse cx="{30 + dx}" cy="{y}" rx="3" ry="6" transform="rotate({rot} {30 + dx} {y})" fill="#2e7d32"/>'
        for dx, y, rot in (
            (-16, 60, -20),
            (-19, 50, -5),
            (-18, 40, 15),
            (16, 60, 20),
            (19, 50, 5),
            (18, 40, -15),
        )
    )
    return (
        laurel
        + '<path d="M16 36l4-14 6 8 4-12 4 12 6-8 4 14z" fill="#c9a227" stroke="#7a5c00" stroke-width="1.5"/>'
        + '<rect x="16" y="36" width="28" height="6" fill="#c9a227" stroke="#7a5c00" stroke-width="1.5"/>'
        + '<circle cx="30" cy="39" r="2" fill="#b71c1c"/><circle cx="30" cy="54" r="7" fill="#b71c1c"/>'
    )


def imperador() -> dict[str, str]:
    files = {}
    for v in range(1, 13):
        ink, ground = BAND_COLOURS[(v + 1) // 2]
        files[f"number_{v}"] = frame(
            ground,
            ink,
            text(30, 56, 34 if v < 10 else 27, ink, ground, str(v))
            + text(11, 17, 11, ink, ground, str(v)),
        )
    for band, shape in OBJECTS.items():
        ink, ground = BAND_COLOURS[band]
        files[f"object_{band}"] = frame(
            "#ffffff",
            ink,
            shape.format(i=ink, g=ground)
            + text(30, 76, 13, ink, "#ffffff", f"{2 * band - 1}–{2 * band}"),
        )
    files["sheep"] = frame("#e8f5e9", "#2e7d32", sheep())
    files["fox"] = frame("#fff3e0", "#bf360c", fox())
    files["emperor"] = frame("#fff8dc", "#7a5c00", emperor())
    files["back"] = back(
        "#7a1f1f", '<g transform="translate(15 14) scale(.5)">' + emperor() + "</g>"
    )
    return files


GAMES = {
    ("cockroach_poker", "cockroach-poker-royal"): cockroach_poker,
    ("mogel_motte", "mogel-motte"): mogel_motte,
    ("imperador", "imperador"): imperador,
}


def main() -> None:
    for (package, slug), draw in GAMES.items():
        folder = ROOT / package / "static" / "catalog" / slug / "cards"
        folder.mkdir(parents=True, exist_ok=True)
        for name, body in draw().items():
            (folder / f"{name}.svg").write_text(SVG.format(body))


if __name__ == "__main__":
    main()
