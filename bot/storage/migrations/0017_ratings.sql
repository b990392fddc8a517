-- Skill ratings (issue 37): one per member per game per server, and one for each game's
-- computer (rated under the first computer seat's id). openskill's Plackett-Luce mean and
-- deviation, how many rated tables they come from, and their ordinal (mu - 3 sigma, kept
-- by the code) that boards sort and ranks count by.
CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    ordinal REAL NOT NULL,
    games INTEGER NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_by_board ON ratings (guild_id, game, ordinal);
