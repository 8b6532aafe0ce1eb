// How to play each game, in a few lines, for the lobby.

export const RULES = {
  klondike: [
    "Build the four foundations up by suit, from the ace to the king.",
    "In the columns, build down in alternating colours (a red six on a black seven); move a run of cards together. Only a king fills an empty column.",
    "Tap the hand to turn cards onto the waste: one at a time with draw 1, three with draw 3. An empty hand turns the waste over again (draw 1: -100 points each time; draw 3: -20 from the third time).",
  "A tap sends a card home when it can go there, else to the column it fits.",
    "A face-down card turns up when it is uncovered (+10). Undo never takes back a card you have seen turned up.",
    "Once every card is face up and the hand is done, the rest plays itself home. 5 minutes; the time left adds a bonus.",
  ],
  golf: [
    "Clear the seven columns: play a column's bottom card onto the waste when it is one rank above or below the waste's top card, whatever its suit.",
    "With wrap off, nothing plays on a king and an ace plays only on a two; with wrap on, the ace and king are next to each other.",
    "Tap the stock to turn its next card onto the waste; there is no redeal. A streak of plays without drawing scores more.",
    "3 minutes; the time left adds a bonus.",
  ],
  kansas: [
    "Build the four foundations up by suit from the base rank (the first card dealt to them), turning the corner from king to ace.",
    "The three columns build down in any suit, an ace under a two and a king under an ace; move any run of cards together.",
    "An emptied column fills itself from the reserve; once the reserve is gone, the waste's top card may fill it.",
    "Tap the stock to turn one card onto the waste; there is no redeal. One point a card home, 52 to win.",
  ],
  expert: [
    "Two decks, all face up. Build eight piles up by suit, from the ace to the king.",
    "In the columns, build down in alternating colours; move a whole string together. Only a king, or a string headed by one, fills an empty column.",
    "The hand holds up to four cards: put a column's card there to free what lies under it, and play it back later.",
    "You win when every column is empty or one string; then the cards play themselves home. One point a card on the piles.",
  ],
};

export const VARIANT_RULES = {
  "klondike:draw:1": "Draw 1: one card at a time from the hand.",
  "klondike:draw:3": "Draw 3: three cards at a time; only the top one plays.",
  "golf:wrap:false": "No wrap: the ace is low and the king is high.",
  "golf:wrap:true": "Wrap: the ace and king are next to each other.",
};

// The variants in words, for the lobby: each option's name and each of its values.
export const VARIANT_WORDS = {
  "klondike:draw": "Cards drawn",
  "klondike:draw:1": "Draw 1 (one card at a time)",
  "klondike:draw:3": "Draw 3 (three at a time)",
  "golf:wrap": "Ace and King",
  "golf:wrap:false": "No wrap (nothing plays on a King)",
  "golf:wrap:true": "Wrap (Ace and King touch)",
};

// The controls, under the board: for a mouse and keys, and for a touch screen.
export const HELP_POINTER = {
  klondike: "Drag cards, or click a card and then where it goes; a card that can go home goes there when clicked. Click the hand to draw. Keys: arrows and Enter, d draw, u undo.",
  golf: "Click a column's bottom card (or press 1-7) to play it on the waste; space draws; u undoes.",
  kansas: "Drag a card (with the cards on it), or click it and then where it goes; a card that can go home goes there when clicked. Keys: arrows and Enter, d draw, u undo.",
  expert: "Drag strings, or click a card and then where it goes; drop a card on the hand to hold it. A card that can go to the piles goes there when clicked. Keys: arrows and Enter, u undo.",
};
export const HELP_TOUCH = {
  klondike: "Drag cards, or tap a card and then where it goes; a card that can go home goes there when tapped. Tap the hand to draw.",
  golf: "Tap a column's bottom card to play it on the waste; tap the stock to draw.",
  kansas: "Drag cards, or tap a card and then where it goes; a card that can go home goes there when tapped.",
  expert: "Drag strings, or tap a card and then where it goes; drop a card on the hand to hold it.",
};
