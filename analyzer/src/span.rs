//! Byte spans in a source file.

use serde::{Deserialize, Serialize};

/// A half-open byte range `[start, end)` in a [`crate::SourceFile`]'s text.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        debug_assert!(start <= end);
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    pub fn empty_at(offset: usize) -> Span {
        Span::new(offset, offset)
    }

    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    pub fn range(&self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn contains(&self, offset: usize) -> bool {
        (self.start as usize) <= offset && offset < self.end as usize
    }
}
