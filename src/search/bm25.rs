//! BM25, written once: its idf, a document's length discount and a term's saturating score
//! (which `agent::selection::rank` weighs field by field, BM25F, with tables as documents), and
//! [`TextIndex`], an index of short texts by their [`grams`] (the worked examples' questions).
//! Written here rather than taken from a crate: it is a page of code.

use super::fold::normalise;
use super::tokens::grams;
use std::collections::HashMap;

/// BM25's usual constants: how fast repeated terms stop counting, and how much a long document
/// (a long question, a table of 40 columns, a long note) is discounted.
pub const K1: f32 = 1.2;
pub const B: f32 = 0.75;

/// The idf of a term that `having` of `documents` documents have.
pub fn idf(documents: usize, having: usize) -> f32 {
    let (n, df) = (documents as f32, having as f32);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// How much a document `length` terms long is discounted, where documents are `average` long:
/// 1 for an average one, more for a longer one.
pub fn length_discount(length: f32, average: f32) -> f32 {
    1.0 - B + B * (length / average.max(1.0))
}

/// A term's share of a document's score: `weight` (its idf, times any weight of the caller's)
/// for `frequency` occurrences, saturating as they repeat, in a document discounted by
/// `discount` ([`length_discount`]; 1 when the frequency is discounted already, as BM25F does
/// field by field).
pub fn term_score(weight: f32, frequency: f32, discount: f32) -> f32 {
    weight * frequency * (K1 + 1.0) / (frequency + K1 * discount)
}

/// One text found for a query: its place in the list the index was made from, and how well it
/// matches, from 0 (nothing in common) towards 1 (every gram of the query, often).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Found {
    pub index: usize,
    pub score: f32,
}

/// A BM25 index over short texts, by their grams.
#[derive(Clone, Debug, Default)]
pub struct TextIndex {
    /// For each gram, the texts that have it and how often.
    postings: HashMap<String, Vec<(usize, u32)>>,
    /// Grams per text.
    lengths: Vec<u32>,
    average_length: f32,
}

impl TextIndex {
    pub fn new<'t>(texts: impl IntoIterator<Item = &'t str>) -> TextIndex {
        let mut index = TextIndex::default();
        for (doc, text) in texts.into_iter().enumerate() {
            let grams = grams(&normalise(text));
            index.lengths.push(grams.len() as u32);
            let mut counts: HashMap<String, u32> = HashMap::new();
            for gram in grams {
                *counts.entry(gram).or_default() += 1;
            }
            for (gram, count) in counts {
                index.postings.entry(gram).or_default().push((doc, count));
            }
        }
        let total: u32 = index.lengths.iter().sum();
        index.average_length = total as f32 / index.lengths.len().max(1) as f32;
        index
    }

    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// The texts like `query`, best first: at most `limit`, each scoring at least `floor`.
    /// Ties keep the texts' order.
    pub fn search(&self, query: &str, limit: usize, floor: f32) -> Vec<Found> {
        let mut query = grams(&normalise(query));
        query.sort();
        query.dedup();
        let mut scores = vec![0.0f32; self.len()];
        // The best a query could score, so that scores read the same whatever the index:
        // every gram of the query found, often (grams no text has count, at the weight of the
        // rarest: a query mostly about something else scores low).
        let mut best_possible = 0.0;
        for gram in &query {
            let postings = self.postings.get(gram).map_or(&[][..], Vec::as_slice);
            let idf = idf(self.len(), postings.len());
            best_possible += idf * (K1 + 1.0);
            for &(doc, count) in postings {
                let discount = length_discount(self.lengths[doc] as f32, self.average_length);
                scores[doc] += term_score(idf, count as f32, discount);
            }
        }
        if best_possible <= 0.0 {
            return Vec::new();
        }
        let mut found: Vec<Found> = scores
            .into_iter()
            .enumerate()
            .map(|(index, score)| Found {
                index,
                score: score / best_possible,
            })
            .filter(|found| found.score >= floor && found.score > 0.0)
            .collect();
        found.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.index.cmp(&b.index)));
        found.truncate(limit);
        found
    }
}
