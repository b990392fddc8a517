// Tanzaku's fair dice, re-derived in the browser (the same as bot/fairness.py).
//
// Every outcome comes from the stream HMAC-SHA256(seed, counter) for counter = 0, 1, 2,
// ... (the counter as 8 bytes, big-endian). Each 32-byte block gives eight 32-bit words
// (big-endian). A die with `sides` faces takes the next word and rejects it when it falls
// in the incomplete top range of 2^32 (no modulo bias): face = word % sides + 1. A shuffle
// of n items is Fisher-Yates from the end: for i = n-1 down to 1, j = below(i + 1).
// Only the browser's own Web Crypto is used: no network, no other script.
"use strict";

const WORD_SPACE = 4294967296;

function hexToBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) {
    bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
  }
  return bytes;
}

function bytesToHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256Hex(bytes) {
  return bytesToHex(await crypto.subtle.digest("SHA-256", bytes));
}

class FairDice {
  constructor(key) {
    this.key = key;
    this.wordIndex = 0;
    this.blockNumber = -1;
    this.block = null;
  }

  static async fromSeedHex(seedHex) {
    const key = await crypto.subtle.importKey(
      "raw", hexToBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"],
    );
    return new FairDice(key);
  }

  async word() {
    const blockNumber = Math.floor(this.wordIndex / 8);
    const offset = this.wordIndex % 8;
    if (blockNumber !== this.blockNumber) {
      const counter = new Uint8Array(8);
      new DataView(counter.buffer).setBigUint64(0, BigInt(blockNumber), false);
      const digest = await crypto.subtle.sign("HMAC", this.key, counter);
      this.block = new DataView(digest);
      this.blockNumber = blockNumber;
    }
    this.wordIndex += 1;
    return this.block.getUint32(offset * 4, false);
  }

  async below(bound) {
    if (!(bound >= 1 && bound <= WORD_SPACE)) {
      throw new Error(`cannot draw below ${bound}`);
    }
    const limit = WORD_SPACE - (WORD_SPACE % bound);
    for (;;) {
      const word = await this.word();
      if (word < limit) {
        return word % bound;
      }
    }
  }

  async roll(sides) {
    return (await this.below(sides)) + 1;
  }

  async shuffleOrder(size) {
    const order = Array.from({ length: size }, (_, i) => i);
    for (let i = size - 1; i > 0; i -= 1) {
      const j = await this.below(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  }
}

// Check every logged draw, in order, against the seed: the index of the first that
// differs (and what the seed gives there), or null when all match.
async function checkDraws(seedHex, steps) {
  const dice = await FairDice.fromSeedHex(seedHex);
  const results = [];
  let index = 0;
  for (const step of steps) {
    for (const draw of step.draws) {
      const [sides, logged] = draw;
      const derived = Array.isArray(logged) ? await dice.shuffleOrder(sides) : await dice.roll(sides);
      const same = JSON.stringify(derived) === JSON.stringify(logged);
      results.push({ step: step.seq, index, sides, logged, derived, same });
      index += 1;
      if (!same) {
        return { results, firstMismatch: results.length - 1 };
      }
    }
  }
  return { results, firstMismatch: null };
}

if (typeof module !== "undefined") {
  module.exports = { FairDice, checkDraws, sha256Hex, hexToBytes };
}
