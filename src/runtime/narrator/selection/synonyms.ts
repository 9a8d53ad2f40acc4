// Groups of words a player and a skill author use for the same thing (story-game English, not any skill's names); the first word stands for its group.

/**
 * Each group folds to its first word, on both sides: the player's words and the skills' manifests. Keep groups
 * narrow: a word that often means something else (lie, house, check, path) stays out, or it drags skills in.
 */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  // Trade
  ['buy', 'purchase', 'purchasing', 'acquire'],
  ['sell', 'vend', 'pawn'],
  ['trade', 'barter', 'swap', 'exchange'],
  ['price', 'cost', 'costs', 'worth', 'afford', 'expensive', 'cheap'],
  ['haggle', 'bargain', 'negotiate', 'haggling', 'haggled'],
  ['merchant', 'trader', 'shopkeeper', 'vendor', 'peddler', 'seller', 'storekeeper'],
  ['wares', 'goods', 'merchandise', 'stock', 'inventory'],
  ['shop', 'stall', 'market', 'emporium'],
  // Travel
  ['travel', 'journey', 'voyage', 'trek', 'expedition'],
  ['distance', 'far', 'miles'],
  ['map', 'chart', 'atlas'],
  ['route', 'routes', 'roads'],
  // Weather
  ['weather', 'forecast', 'climate'],
  ['rain', 'raining', 'drizzle', 'downpour', 'rainy'],
  ['storm', 'thunderstorm', 'tempest', 'thunder', 'lightning', 'stormy'],
  ['wind', 'windy', 'breeze', 'gale', 'gust', 'gusts'],
  ['fog', 'mist', 'haze', 'foggy', 'misty'],
  ['snow', 'blizzard', 'sleet', 'snowing'],
  ['temperature', 'cold', 'chill', 'chilly', 'freezing', 'frost', 'icy', 'hot', 'heat', 'sweltering'],
  // Creatures and lore
  ['monster', 'creature', 'beast', 'fiend', 'monsters', 'creatures'],
  ['weakness', 'weak', 'vulnerable', 'vulnerability', 'bane'],
  ['lair', 'den', 'nest', 'burrow'],
  ['danger', 'dangerous', 'deadly', 'lethal', 'threat'],
  ['kill', 'slay', 'defeat', 'destroy'],
  // Memory and the past
  ['remember', 'recall', 'recollect', 'memory', 'memories', 'remind', 'forgot', 'forget'],
  ['met', 'meet', 'encountered'],
  // How others see the player
  ['trust', 'faith', 'confidence', 'distrust'],
  ['angry', 'mad', 'furious', 'annoyed', 'upset', 'cross', 'anger'],
  ['hate', 'despise', 'loathe', 'dislike', 'hatred'],
  ['reputation', 'standing', 'renown', 'regard', 'esteem', 'fame', 'infamy'],
  ['faction', 'factions', 'guild', 'guilds', 'league', 'clan', 'brotherhood'],
  ['attitude', 'opinion', 'disposition', 'perceive', 'perception', 'feelings'],
  // Options
  ['option', 'options', 'choice', 'choices', 'alternative', 'alternatives', 'possibilities'],
  ['idea', 'ideas', 'suggestion', 'suggestions', 'advice'],
  // Appearance
  ['portrait', 'picture', 'likeness', 'sketch', 'painting'],
  ['appearance', 'face', 'features', 'looks'],
  // Uncertain actions
  ['attack', 'strike', 'stab', 'slash', 'swing', 'shoot', 'fight', 'punch', 'combat', 'hit'],
  ['sneak', 'creep', 'tiptoe', 'stealth', 'sneaking', 'stealthily'],
  ['persuade', 'convince', 'coax', 'cajole', 'sway', 'persuasion'],
  ['deceive', 'bluff', 'trick', 'fool', 'deception'],
  ['climb', 'scale', 'clamber', 'climbing'],
  ['jump', 'leap', 'vault'],
  ['dodge', 'evade', 'sidestep'],
  ['roll', 'dice', 'rolls'],
  // Deeds
  ['steal', 'rob', 'pickpocket', 'burgle', 'loot', 'pilfer', 'theft', 'robbery'],
  ['help', 'assist', 'aid', 'rescue'],
];
