//! What the agent remembers between questions: earlier questions, their answers and the SQL
//! behind them, so that "and in April?" makes sense. Not the tool traffic: that would cost tokens
//! on every later question and tell the model little it cannot ask for again.

use super::Answer;
use crate::llm::Message;
use crate::text::cut_chars;
use serde::{Deserialize, Serialize};

/// Earlier turns beyond this many are forgotten.
const KEPT_TURNS: usize = 8;
/// Long answers are remembered in part.
const ANSWER_CHARS: usize = 1_500;
const SQL_CHARS: usize = 2_000;

/// One answered question.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    pub question: String,
    pub answer: String,
    pub sql: Option<String>,
    pub notes: Option<String>,
}

/// The questions answered so far on one database, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Conversation {
    turns: Vec<Turn>,
}

impl Conversation {
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    pub fn record(&mut self, question: &str, answer: &Answer) {
        self.turns.push(Turn {
            question: cut_chars(question, ANSWER_CHARS),
            answer: cut_chars(&answer.text, ANSWER_CHARS),
            sql: answer.sql.as_deref().map(|sql| cut_chars(sql, SQL_CHARS)),
            notes: answer
                .notes
                .as_deref()
                .map(|notes| cut_chars(notes, ANSWER_CHARS)),
        });
        if self.turns.len() > KEPT_TURNS {
            self.turns.remove(0);
        }
    }

    /// The earlier turns as messages: each question, then its answer with the evidence SQL.
    pub(crate) fn as_messages(&self) -> Vec<Message> {
        let mut messages = Vec::new();
        for turn in &self.turns {
            messages.push(Message::User {
                text: turn.question.clone(),
            });
            let mut answer = turn.answer.clone();
            if let Some(sql) = &turn.sql {
                answer.push_str("\n\nSQL used as evidence:\n");
                answer.push_str(sql);
            }
            if let Some(notes) = &turn.notes {
                answer.push_str("\n\nNotes: ");
                answer.push_str(notes);
            }
            messages.push(Message::Assistant {
                text: Some(answer),
                tool_calls: Vec::new(),
                raw: None,
            });
        }
        messages
    }
}
