// The achievements' icons as inline SVG, drawn in the text's colour: an emoji needs
// an emoji font, which many machines lack (a box shows instead), and nothing may
// be fetched from outside. One icon per goal id of GET /api/achievements.
const NS = "http://www.w3.org/2000/svg";
// each part: "f" filled path, "s" stroked path, "c" filled circle "cx cy r",
// "o" stroked circle, "t" text (digits: every font has them)
const ICONS = {
  moon: [["f", "M20 14.5A8.5 8.5 0 1 1 9.5 4a6.8 6.8 0 0 0 10.5 10.5z"]],
  moons_5: [["o", "12 12 9.5"], ["t", "5"]],
  moon_stopper: [["s", "M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z"], ["s", "M8.5 12l2.5 2.5 4.5-5"]],
  clean_hand: [["f", "M12 2l2.4 7.6L22 12l-7.6 2.4L12 22l-2.4-7.6L2 12l7.6-2.4z"]],
  clean_hand_hard: [["o", "12 12 9.5"], ["f", "M12 5.5l1.6 4.9 4.9 1.6-4.9 1.6-1.6 4.9-1.6-4.9-4.9-1.6 4.9-1.6z"]],
  queen_giver: [["s", "M3 6h18v12H3z"], ["s", "M3 6l9 7 9-7"]],
  jack_taker: [["f", "M12 2l7.5 10L12 22 4.5 12z"]],
  first_match: [["s", "M4 5.5l8-2 3.4 13.6-8 2z"], ["s", "M12.5 5.2l7.5 2-3.6 13.5"]],
  first_win: [["s", "M7 4h10v5a5 5 0 0 1-10 0zM12 14v4M8 20h8M7 6H4a3 3 0 0 0 3 4M17 6h3a3 3 0 0 1-3 4"]],
  win_hard: [["f", "M13.5 2L4 14h7l-1.5 8L19 10h-7z"]],
  win_under_50: [["o", "12 12 9"], ["o", "12 12 5"], ["c", "12 12 1.8"]],
  no_queen_match: [["f", "M3 8l4.5 4L12 5l4.5 7L21 8l-2 11H5z"]],
  comeback: [["s", "M19.5 12.5a7.5 7.5 0 1 1-2.2-5.8M19.5 3.5v4.5H15"]],
  no_hints_win: [["o", "12 12 9"], ["s", "M7.5 12.5l3 3 6-6.5"]],
  checker_clean: [["s", "M6.5 3h11v18h-11z"], ["s", "M9 12.5l2.2 2.2 4-4.7"]],
  streak_3: [["f", "M12 2c1 4 6.5 6 6.5 12a6.5 6.5 0 0 1-13 0c0-3 2-5 3-6 0 2 1 3.5 2.5 3.5C11 8 10 5.5 12 2z"]],
  matches_10: [["s", "M3.5 5h17v14h-17z"], ["t", "10"]],
  matches_100: [["s", "M2.5 5h19v14h-19z"], ["t", "100"]],
  variants: [["o", "12 12 9.5"], ["f", "M12 5l3 7-3 7-3-7z"]],
};
const STAR = [["f", "M12 2.5l2.9 6.2 6.6.7-5 4.5 1.4 6.6L12 17.1l-5.9 3.4 1.4-6.6-5-4.5 6.6-.7z"]];

function part([kind, v]) {
  const circle = kind === "c" || kind === "o";
  const e = document.createElementNS(NS, circle ? "circle" : kind === "t" ? "text" : "path");
  if (circle) {
    const [cx, cy, r] = v.split(" ");
    e.setAttribute("cx", cx); e.setAttribute("cy", cy); e.setAttribute("r", r);
  } else if (kind === "t") {
    e.setAttribute("x", "12"); e.setAttribute("y", "16.2");
    e.setAttribute("text-anchor", "middle");
    e.setAttribute("font-size", v.length > 2 ? "8.5" : "10");
    e.setAttribute("font-weight", "700");
    e.setAttribute("font-family", "sans-serif");
    e.textContent = v;
  } else {
    e.setAttribute("d", v);
  }
  const stroked = kind === "s" || kind === "o";
  e.setAttribute("fill", stroked ? "none" : "currentColor");
  if (stroked) {
    e.setAttribute("stroke", "currentColor");
    e.setAttribute("stroke-width", "2");
    e.setAttribute("stroke-linejoin", "round");
    e.setAttribute("stroke-linecap", "round");
  }
  return e;
}

// <svg class="icon"> for the goal ``id`` (a star for an id this page does not know).
export function achievementIcon(id) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "icon");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const p of ICONS[id] || STAR) svg.append(part(p));
  return svg;
}
