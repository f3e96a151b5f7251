/** The demo organization's ids (users and channels), as the first start creates them. */

export const DESDEMONA = 1;
export const IAGO = 2;
export const SHIVA = 3;
export const HAMLET = 4;
export const OTHELLO = 5;
export const CORDELIA = 6;
export const PROSPERO = 7;
export const POLONIUS = 8;
export const BOT = 9;

export const GENERAL = 1;
export const VERONA = 2;
export const DENMARK = 3;
export const SCOTLAND = 4;
export const CORE_TEAM = 5;
export const MODERATION = 6;
