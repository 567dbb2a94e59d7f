//! The value store of a Grundy sequence: one byte per heap size while every value is below 256,
//! two bytes beyond (issue 25, "compact values").
//!
//! Why: a long run's memory is its values. Most octal games (0.167, 0.16, 0.07, most of the
//! catalogue) never reach 256, so half of the two bytes of a `u16` store is always zero; a
//! run of 0.167 to 2^33 needs 8 GiB in bytes against 16 GiB in `u16`. The store starts in bytes
//! ([`Values::U8`]) whenever the engine can read bytes ([`SequenceEngine::compact`]), and the
//! first value that does not fit moves it to `u16` ([`Values::U16`]) in one pass over the
//! values — at most once per run, and only for games whose values pass 255 (Officers first at
//! heap 10,344, 0.146 at heap 5,305, 0.437 at heap 1,928: measured with `grundy takebreak
//! CODE -n 300000 --no-extend --print --json`).
//! The values themselves are the same either way: the engines read them through [`Value`],
//! whose `get` widens a byte to `u16` (the kernels widen 16 or 32 bytes per vector load).
//!
//! Either width lives in a [`Buf`]: a `Vec` in memory, or (tiered storage, `--tiered`) a file
//! mapped into memory ([`super::mapped`], [`super::tiered`]); the engines see a slice either way.
//!
//! A third store, for Officers-like games ([`Odd8Store`], `--compact-values`): values below
//! 512 with odd parity under Officers' mask in one byte each, bit 8 rebuilt, the values before
//! the last one that does not fit kept apart in `u16` (see the `sparse` module docs, "Officers
//! in one byte").
//!
//! [`SequenceEngine::compact`]: super::SequenceEngine::compact

use serde::Serialize;

mod sealed {
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for u16 {}
    impl Sealed for super::Odd8 {}
}

/// A stored value: `u8` (values below 256) or `u16`. The engines are generic over it.
pub trait Value:
    sealed::Sealed + Copy + Default + Eq + Ord + Send + Sync + std::fmt::Debug + 'static
{
    /// Bytes per value.
    const BYTES: usize;
    /// Every value below this fits.
    const LIMIT: usize;
    /// The value.
    fn get(self) -> u16;
    /// `v` as a stored value, if it fits.
    fn fit(v: usize) -> Option<Self>;
    /// `self ^ other`, taken in the stored width (so that vectorised loops xor bytes as bytes).
    fn xor(self, other: Self) -> u16;
    /// The values as `u16`s, where they are stored so (kernels written for that width only).
    fn as_u16s(values: &[Self]) -> Option<&[u16]>;
    /// Not 0 for a store that keeps only the low byte of a value below 512 and rebuilds bit 8
    /// from the parity of the kept bits under this mask ([`Odd8`]); the kernels that load bytes
    /// rebuild it after widening.
    const ODD_MASK: u16 = 0;
}

impl Value for u8 {
    const BYTES: usize = 1;
    const LIMIT: usize = 1 << 8;
    #[inline(always)]
    fn get(self) -> u16 {
        self as u16
    }
    #[inline(always)]
    fn fit(v: usize) -> Option<Self> {
        u8::try_from(v).ok()
    }
    #[inline(always)]
    fn xor(self, other: Self) -> u16 {
        (self ^ other) as u16
    }
    fn as_u16s(_: &[Self]) -> Option<&[u16]> {
        None
    }
}

impl Value for u16 {
    const BYTES: usize = 2;
    const LIMIT: usize = 1 << 16;
    #[inline(always)]
    fn get(self) -> u16 {
        self
    }
    #[inline(always)]
    fn fit(v: usize) -> Option<Self> {
        u16::try_from(v).ok()
    }
    #[inline(always)]
    fn xor(self, other: Self) -> u16 {
        self ^ other
    }
    fn as_u16s(values: &[Self]) -> Option<&[u16]> {
        Some(values)
    }
}

/// The mask of [`Odd8`]: Officers' (0.6), under which every value of a heap past 20,627 has odd
/// parity (to 2^22 at least; `grundy takebreak 0.6 -n 4194304 --results DIR` says "last rare
/// heap 20627"), the rare/common engine's split of that game (Grossman's 8-bit store).
pub const ODD8_MASK: u16 = 0b1_1110_1110;

/// A value below 512 with odd parity under [`ODD8_MASK`], kept in one byte: its low 8 bits.
/// Bit 8 is the complement of the parity of the kept bits under the mask, so the value is rebuilt
/// from the byte alone. A store of these holds *every* heap size in one byte, but only the heaps
/// past the last value that does not fit decode to their values: the values below that (the
/// *head*, [`Odd8Store`]) are kept apart in `u16`, and whatever reads the store reads the head
/// there (the rare/common engine: its rare positions' values and the splits below the head's end).
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Debug)]
#[repr(transparent)]
pub struct Odd8(pub u8);

/// [`Odd8::decode`] of every byte (a table: one load instead of a parity computation).
static ODD8_VALUES: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = Odd8::decode(b as u8);
        b += 1;
    }
    t
};

impl Odd8 {
    /// The value of the byte `b`: `b` with bit 8 rebuilt.
    #[inline(always)]
    pub const fn decode(b: u8) -> u16 {
        let odd = ((b as u16) & ODD8_MASK).count_ones() & 1;
        (b as u16) | (((odd ^ 1) as u16) << 8)
    }

    /// Whether `v` is kept exactly by one byte.
    #[inline(always)]
    pub const fn fits(v: usize) -> bool {
        v < 512 && (v as u16 & ODD8_MASK).count_ones() & 1 == 1
    }
}

impl Value for Odd8 {
    const BYTES: usize = 1;
    const LIMIT: usize = 1 << 9;
    const ODD_MASK: u16 = ODD8_MASK;
    #[inline(always)]
    fn get(self) -> u16 {
        ODD8_VALUES[self.0 as usize]
    }
    #[inline(always)]
    fn fit(v: usize) -> Option<Self> {
        Odd8::fits(v).then_some(Odd8(v as u8))
    }
    #[inline(always)]
    fn xor(self, other: Self) -> u16 {
        self.get() ^ other.get()
    }
    fn as_u16s(_: &[Self]) -> Option<&[u16]> {
        None
    }
}

/// G(0..len) with the values of heaps `0..head.len()` in `u16` and every heap in one byte
/// ([`Odd8`]; the bytes below the head's end are not read for values). Every heap at or past
/// the head's end has a value that fits a byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Odd8Store {
    /// G(0..h) in `u16`.
    pub head: Vec<u16>,
    /// Every heap's byte.
    pub bytes: Buf<Odd8>,
}

impl Odd8Store {
    /// `values` in one byte each past the last value that does not fit ([`Odd8::fits`]), the
    /// head rounded up to a multiple of 64 heaps; `None` when the head would hold more than
    /// `max_head` values.
    pub fn from_u16(values: &[u16], max_head: usize) -> Option<Self> {
        let h = Self::head_end(values.iter().map(|&v| v as usize));
        if h > max_head {
            return None;
        }
        let mut bytes = Vec::with_capacity(values.len());
        bytes.extend(values.iter().map(|&v| Odd8(v as u8)));
        Some(Odd8Store {
            head: values[..h].to_vec(),
            bytes: Buf::Heap(bytes),
        })
    }

    /// The head's end for `values`: past the last that does not fit, rounded up to 64 heaps (or
    /// to the end).
    fn head_end(mut values: impl DoubleEndedIterator<Item = usize> + ExactSizeIterator) -> usize {
        let len = values.len();
        values
            .rposition(|v| !Odd8::fits(v))
            .map_or(0, |i| (i + 1).next_multiple_of(64))
            .min(len)
    }

    /// An empty store (no head) with room for `room` values.
    pub fn with_capacity(room: usize) -> Self {
        Odd8Store {
            head: Vec::new(),
            bytes: Buf::Heap(Vec::with_capacity(room)),
        }
    }

    /// Append `v` as values are read back in order (a checkpoint): its byte when it fits;
    /// otherwise the head grows to hold it, the values since the head's end decoded from their
    /// bytes (they fit). `false`, with nothing appended, when the head would then hold more than
    /// `max_head` values (rounded up to 64, as [`Self::from_u16`] counts them).
    pub fn push_growing(&mut self, v: u16, max_head: usize) -> bool {
        let i = self.bytes.len();
        if let Some(b) = Odd8::fit(v as usize) {
            self.bytes.push(b);
            return true;
        }
        if (i + 1).next_multiple_of(64) > max_head {
            return false;
        }
        let from = self.head.len();
        self.head
            .extend(self.bytes[from..i].iter().map(|b| b.get()));
        self.head.push(v);
        self.bytes.push(Odd8(v as u8));
        true
    }

    /// Values below 256 (`values`, whose bytes they are) as such a store, the head up to the
    /// last that does not fit rounded up to 64 (as [`Self::from_u16`]); the bytes back when the
    /// head would hold more than `max_head` values. The room reserved is kept.
    pub fn from_bytes(values: Vec<u8>, max_head: usize) -> Result<Self, Vec<u8>> {
        let h = Self::head_end(values.iter().map(|&v| v as usize));
        if h > max_head {
            return Err(values);
        }
        let head = values[..h].iter().map(|&v| u16::from(v)).collect();
        let room = values.capacity();
        // (one byte to one byte: collected in place)
        let mut bytes: Vec<Odd8> = values.into_iter().map(Odd8).collect();
        bytes.reserve_exact(room - bytes.len());
        Ok(Odd8Store {
            head,
            bytes: Buf::Heap(bytes),
        })
    }

    /// [`Self::push_growing`] for the values of `le` (two little-endian bytes each, as a
    /// checkpoint keeps them), the runs of values that fit a stretch at a time. Returns how many
    /// bytes of `le` were taken (all but from the first value that would make the head too long).
    pub fn extend_growing(&mut self, le: &[u8], max_head: usize) -> usize {
        let value = |b: &[u8]| u16::from_le_bytes([b[0], b[1]]);
        let mut taken = 0;
        while taken < le.len() {
            let rest = &le[taken..];
            let run = rest
                .chunks_exact(2)
                .position(|b| !Odd8::fits(value(b) as usize))
                .unwrap_or(rest.len() / 2);
            match &mut self.bytes {
                Buf::Heap(v) => v.extend(rest[..2 * run].chunks_exact(2).map(|b| Odd8(b[0]))),
                #[cfg(unix)]
                Buf::Mapped(_) => rest[..2 * run]
                    .chunks_exact(2)
                    .for_each(|b| self.bytes.push(Odd8(b[0]))),
            }
            taken += 2 * run;
            if taken < le.len() {
                if !self.push_growing(value(&le[taken..]), max_head) {
                    break;
                }
                taken += 2;
            }
        }
        taken
    }

    /// The head's end rounded up to a multiple of 64 values (or to the end), as
    /// [`Self::from_u16`] leaves it: once the values of [`Self::push_growing`] are all in.
    pub fn round_head(&mut self) {
        let h = self.head.len();
        if h > 0 {
            let to = h.next_multiple_of(64).min(self.bytes.len());
            self.head.extend(self.bytes[h..to].iter().map(|b| b.get()));
        }
    }

    /// G(i).
    #[inline]
    pub fn get(&self, i: usize) -> u16 {
        match self.head.get(i) {
            Some(&v) => v,
            None => self.bytes[i].get(),
        }
    }

    /// The values as `u16` (a copy).
    pub fn to_u16(&self) -> Vec<u16> {
        self.as_ref().iter().collect()
    }

    /// A borrowed view.
    pub fn as_ref(&self) -> SplitRef<'_> {
        SplitRef {
            head: &self.head,
            bytes: &self.bytes,
            from: 0,
        }
    }
}

/// G(from..to) of a store whose values below `head.len()` are in `head` (in `u16`) and whose
/// later values are bytes that decode to them ([`Odd8`]): a borrowed [`Odd8Store`], or a
/// stretch of one.
#[derive(Debug, Clone, Copy)]
pub struct SplitRef<'a> {
    /// G(0..h).
    pub head: &'a [u16],
    /// A byte per heap `0..to` (those below `h` are not values).
    pub bytes: &'a [Odd8],
    /// The first heap of the view.
    pub from: usize,
}

impl<'a> SplitRef<'a> {
    /// How many values.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len() - self.from
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Value `i` of the view, G(from + i).
    ///
    /// # Panics
    /// If `i >= len()`.
    #[inline]
    pub fn get(&self, i: usize) -> u16 {
        let i = self.from + i;
        match self.head.get(i) {
            Some(&v) => v,
            None => self.bytes[i].get(),
        }
    }

    /// The view's values in order.
    pub fn iter(&self) -> Iter<'a> {
        let h = self.head.len().min(self.bytes.len());
        let head = &self.head[self.from.min(h)..h];
        Iter::Split(head.iter(), self.bytes[self.from.max(h)..].iter())
    }

    /// Values `from..to` of the view.
    ///
    /// # Panics
    /// If `from > to` or `to > len()`.
    pub fn slice(&self, from: usize, to: usize) -> SplitRef<'a> {
        assert!(
            from <= to && to <= self.len(),
            "{from}..{to} of {}",
            self.len()
        );
        SplitRef {
            head: self.head,
            bytes: &self.bytes[..self.from + to],
            from: self.from + from,
        }
    }
}

impl super::period::Seq for SplitRef<'_> {
    type Item = u16;
    #[inline]
    fn len(self) -> usize {
        SplitRef::len(&self)
    }
    #[inline]
    fn at(self, i: usize) -> u16 {
        self.get(i)
    }
    fn same(self, a: usize, b: usize, k: usize) -> bool {
        let (a, b) = (self.from + a, self.from + b);
        if a.min(b) >= self.head.len() {
            // bytes that decode are equal exactly when their values are
            self.bytes[a..a + k] == self.bytes[b..b + k]
        } else {
            (0..k).all(|j| self.get(a - self.from + j) == self.get(b - self.from + j))
        }
    }
}

/// The growable array the values live in: an ordinary vector, or (tiered storage, issue 25) a
/// file mapped into memory ([`super::mapped::MappedVec`]), whose middle the kernel reads back
/// from the page cache or the disk when an engine looks at it. The engines see a slice either
/// way (`Deref<Target = [V]>`), and append with [`Buf::push`] or, in the two-thread pipeline,
/// with [`Buf::reserve`], [`Buf::as_mut_ptr`] and [`Buf::set_len`] as on a `Vec`.
#[derive(Debug)]
pub enum Buf<V: Value> {
    /// In memory.
    Heap(Vec<V>),
    /// In a file mapped into memory.
    #[cfg(unix)]
    Mapped(super::mapped::MappedVec<V>),
}

impl<V: Value> Buf<V> {
    /// How many values.
    #[inline]
    pub fn len(&self) -> usize {
        match self {
            Buf::Heap(v) => v.len(),
            #[cfg(unix)]
            Buf::Mapped(m) => m.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Append `value`.
    #[inline]
    pub fn push(&mut self, value: V) {
        match self {
            Buf::Heap(v) => v.push(value),
            #[cfg(unix)]
            Buf::Mapped(m) => m.push(value),
        }
    }

    /// Keep the first `len` values.
    pub fn truncate(&mut self, len: usize) {
        match self {
            Buf::Heap(v) => v.truncate(len),
            #[cfg(unix)]
            Buf::Mapped(m) => m.truncate(len),
        }
    }

    /// Room for `more` values beyond `len()` (written through [`Self::as_mut_ptr`]).
    pub fn reserve(&mut self, more: usize) {
        match self {
            Buf::Heap(v) => v.reserve(more),
            #[cfg(unix)]
            Buf::Mapped(m) => m.reserve(more),
        }
    }

    /// Room for exactly `more` values beyond `len()` (a vector does not over-allocate).
    pub fn reserve_exact(&mut self, more: usize) {
        match self {
            Buf::Heap(v) => v.reserve_exact(more),
            #[cfg(unix)]
            Buf::Mapped(m) => m.reserve(more),
        }
    }

    /// Room for `more` values, or the reason there is none (a file that cannot grow). A vector
    /// is left as it is (it grows as it is pushed to, as before).
    pub fn try_reserve_room(&mut self, more: usize) -> Result<(), crate::Error> {
        match self {
            Buf::Heap(_) => Ok(()),
            #[cfg(unix)]
            Buf::Mapped(m) => m.try_reserve(more),
        }
    }

    /// The start of the values (room reserved beyond `len()` may be written through it).
    #[inline]
    pub fn as_mut_ptr(&mut self) -> *mut V {
        match self {
            Buf::Heap(v) => v.as_mut_ptr(),
            #[cfg(unix)]
            Buf::Mapped(m) => m.as_mut_ptr(),
        }
    }

    /// Set the length.
    ///
    /// # Safety
    /// As [`Vec::set_len`]: `len` at most the room reserved, and every value below it written.
    #[inline]
    pub unsafe fn set_len(&mut self, len: usize) {
        match self {
            // SAFETY: the caller's promise
            Buf::Heap(v) => unsafe { v.set_len(len) },
            #[cfg(unix)]
            // SAFETY: the caller's promise
            Buf::Mapped(m) => unsafe { m.set_len(len) },
        }
    }

    /// Whether the values are in a mapped file.
    pub fn is_mapped(&self) -> bool {
        !matches!(self, Buf::Heap(_))
    }
}

impl<V: Value> std::ops::Deref for Buf<V> {
    type Target = [V];
    #[inline]
    fn deref(&self) -> &[V] {
        match self {
            Buf::Heap(v) => v,
            #[cfg(unix)]
            Buf::Mapped(m) => m,
        }
    }
}

impl<V: Value> std::ops::DerefMut for Buf<V> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [V] {
        match self {
            Buf::Heap(v) => v,
            #[cfg(unix)]
            Buf::Mapped(m) => m,
        }
    }
}

/// A copy is always in memory (a mapped store is one run's; copying it reads the whole file).
impl<V: Value> Clone for Buf<V> {
    fn clone(&self) -> Self {
        Buf::Heap(self.to_vec())
    }
}

impl<V: Value> PartialEq for Buf<V> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<V: Value> Eq for Buf<V> {}

impl<V: Value> From<Vec<V>> for Buf<V> {
    fn from(v: Vec<V>) -> Self {
        Buf::Heap(v)
    }
}

/// G(0), G(1), ... in one byte each while every value is below 256, else in two, or (Officers'
/// values past its last rare heap) one byte each with a head in two ([`Odd8Store`]).
#[derive(Debug, Clone)]
pub enum Values {
    /// Every value is below 256.
    U8(Buf<u8>),
    /// Any values.
    U16(Buf<u16>),
    /// A head in `u16`, every later value in one byte ([`Odd8`]).
    Odd8(Odd8Store),
}

/// Equal when the values are (whatever their stores).
impl PartialEq for Values {
    fn eq(&self, other: &Self) -> bool {
        self.as_ref() == other.as_ref()
    }
}

impl Eq for Values {}

impl Default for Values {
    fn default() -> Self {
        Values::U16(Buf::Heap(Vec::new()))
    }
}

impl Values {
    /// An empty store: bytes when `compact`, else `u16`.
    pub fn new(compact: bool) -> Self {
        if compact {
            Values::U8(Buf::Heap(Vec::new()))
        } else {
            Values::U16(Buf::Heap(Vec::new()))
        }
    }

    /// `values` in bytes when `compact` and every value is below 256, else as they are.
    pub fn from_u16(values: Vec<u16>, compact: bool) -> Self {
        if compact && values.iter().all(|&v| v < 256) {
            Values::U8(Buf::Heap(values.into_iter().map(|v| v as u8).collect()))
        } else {
            Values::U16(Buf::Heap(values))
        }
    }

    /// How many values.
    pub fn len(&self) -> usize {
        match self {
            Values::U8(v) => v.len(),
            Values::U16(v) => v.len(),
            Values::Odd8(v) => v.bytes.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes per value (1 or 2; a store of bytes with a head says 1).
    pub fn value_bytes(&self) -> usize {
        self.as_ref().value_bytes()
    }

    /// The values of a store of bytes with a head held in `u16` ([`Odd8Store`]), 0 otherwise.
    pub fn head_len(&self) -> usize {
        match self {
            Values::Odd8(v) => v.head.len(),
            _ => 0,
        }
    }

    /// G(i).
    ///
    /// # Panics
    /// If `i >= len()`.
    #[inline]
    pub fn get(&self, i: usize) -> u16 {
        self.as_ref().get(i)
    }

    /// A borrowed view.
    pub fn as_ref(&self) -> ValuesRef<'_> {
        match self {
            Values::U8(v) => ValuesRef::U8(v),
            Values::U16(v) => ValuesRef::U16(v),
            Values::Odd8(v) => ValuesRef::Split(v.as_ref()),
        }
    }

    /// Keep the first `len` values.
    pub fn truncate(&mut self, len: usize) {
        match self {
            Values::U8(v) => v.truncate(len),
            Values::U16(v) => v.truncate(len),
            Values::Odd8(v) => {
                v.bytes.truncate(len);
                v.head.truncate(len);
            }
        }
    }

    /// Room for `more` values without reallocating.
    pub fn reserve_exact(&mut self, more: usize) {
        match self {
            Values::U8(v) => v.reserve_exact(more),
            Values::U16(v) => v.reserve_exact(more),
            Values::Odd8(v) => v.bytes.reserve_exact(more),
        }
    }

    /// Append `value`, moving the store to `u16` first if it does not fit a byte.
    pub fn push(&mut self, value: u16) {
        if let Values::U8(v) = self {
            if let Ok(b) = u8::try_from(value) {
                v.push(b);
                return;
            }
            self.widen();
        }
        if let Values::Odd8(v) = self {
            if let Some(b) = Odd8::fit(value as usize) {
                v.bytes.push(b);
                return;
            }
            self.widen();
        }
        if let Values::U16(v) = self {
            v.push(value);
        }
    }

    /// Move the store to `u16` (one pass; nothing to do if it is already). The room reserved
    /// is kept.
    ///
    /// # Panics
    /// If the store is a mapped file that cannot be widened (the disk is full): callers that
    /// can say so use [`Self::try_widen`].
    pub fn widen(&mut self) -> &mut Buf<u16> {
        self.try_widen()
            .unwrap_or_else(|e| panic!("cannot widen the values: {e}"))
    }

    /// Move the store to `u16` (one pass; nothing to do if it is already): a mapped store
    /// writes a second file of two bytes per value ([`super::mapped::MappedVec::widen`]).
    pub fn try_widen(&mut self) -> Result<&mut Buf<u16>, crate::Error> {
        if let Values::Odd8(store) = self {
            let mut wide = Vec::with_capacity(match &store.bytes {
                Buf::Heap(v) => v.capacity(),
                #[cfg(unix)]
                Buf::Mapped(m) => m.len(),
            });
            wide.extend(store.as_ref().iter());
            *self = Values::U16(Buf::Heap(wide));
        }
        if let Values::U8(bytes) = self {
            let wide = match bytes {
                Buf::Heap(bytes) => {
                    let mut wide = Vec::with_capacity(bytes.capacity());
                    wide.extend(bytes.iter().map(|&b| b as u16));
                    Buf::Heap(wide)
                }
                #[cfg(unix)]
                Buf::Mapped(m) => Buf::Mapped(m.widen()?),
            };
            *self = Values::U16(wide);
        }
        match self {
            Values::U16(v) => Ok(v),
            Values::U8(_) | Values::Odd8(_) => unreachable!("widened just above"),
        }
    }

    /// Room for `more` values beyond `len()`, or why there is none (see [`Buf::try_reserve_room`]).
    pub fn try_reserve_room(&mut self, more: usize) -> Result<(), crate::Error> {
        match self {
            Values::U8(v) => v.try_reserve_room(more),
            Values::U16(v) => v.try_reserve_room(more),
            Values::Odd8(v) => v.bytes.try_reserve_room(more),
        }
    }

    /// Give back the process's pages of values `from..to` of a mapped store (they are read
    /// again from the page cache or the file when needed); nothing for a store in memory.
    pub fn release(&self, from: usize, to: usize) {
        match self {
            #[cfg(unix)]
            Values::U8(Buf::Mapped(m)) => {
                m.release(from, to);
            }
            #[cfg(unix)]
            Values::U16(Buf::Mapped(m)) => {
                m.release(from, to);
            }
            _ => {
                let _ = (from, to);
            }
        }
    }

    /// Whether the values are in a mapped file (tiered storage).
    pub fn is_mapped(&self) -> bool {
        match self {
            Values::U8(v) => v.is_mapped(),
            Values::U16(v) => v.is_mapped(),
            Values::Odd8(v) => v.bytes.is_mapped(),
        }
    }

    /// G(0), G(1), ... in order.
    pub fn iter(&self) -> Iter<'_> {
        self.as_ref().iter()
    }

    /// The values as `u16` (a copy).
    pub fn to_vec(&self) -> Vec<u16> {
        self.as_ref().to_vec()
    }

    /// The values as `u16`, the store itself when it is `u16`.
    pub fn into_u16(self) -> Vec<u16> {
        match self {
            Values::U8(v) => v.iter().map(|&b| u16::from(b)).collect(),
            Values::U16(Buf::Heap(v)) => v,
            #[cfg(unix)]
            Values::U16(v) => v.to_vec(),
            Values::Odd8(v) => v.as_ref().iter().collect(),
        }
    }

    /// Move a `u16` store in memory to one byte per value with a head ([`Odd8Store`]) when the
    /// head that needs holds at most `max_head` values; whether it did. The room reserved is
    /// kept (in bytes).
    pub fn narrow_odd8(&mut self, max_head: usize) -> bool {
        let Values::U16(Buf::Heap(wide)) = self else {
            return false;
        };
        let Some(mut store) = Odd8Store::from_u16(wide, max_head) else {
            return false;
        };
        store.bytes.reserve_exact(wide.capacity() - wide.len());
        *self = Values::Odd8(store);
        true
    }
}

impl From<Vec<u16>> for Values {
    fn from(values: Vec<u16>) -> Self {
        Values::U16(Buf::Heap(values))
    }
}

impl PartialEq<Vec<u16>> for Values {
    fn eq(&self, other: &Vec<u16>) -> bool {
        self.as_ref() == other[..]
    }
}

impl PartialEq<[u16]> for Values {
    fn eq(&self, other: &[u16]) -> bool {
        self.as_ref() == *other
    }
}

impl Serialize for Values {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// A borrowed [`Values`]: G(0..len) in bytes or `u16`.
#[derive(Debug, Clone, Copy)]
pub enum ValuesRef<'a> {
    /// Every value below 256.
    U8(&'a [u8]),
    /// Any values.
    U16(&'a [u16]),
    /// Values in `u16`, then values in one byte ([`Odd8Store`]).
    Split(SplitRef<'a>),
}

impl<'a> ValuesRef<'a> {
    /// Bytes per value of the store viewed (as [`Values::value_bytes`]).
    pub fn value_bytes(&self) -> usize {
        match self {
            ValuesRef::U8(_) | ValuesRef::Split(_) => 1,
            ValuesRef::U16(_) => 2,
        }
    }

    /// How many values.
    pub fn len(&self) -> usize {
        match self {
            ValuesRef::U8(v) => v.len(),
            ValuesRef::U16(v) => v.len(),
            ValuesRef::Split(v) => v.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// G(i).
    ///
    /// # Panics
    /// If `i >= len()`.
    #[inline]
    pub fn get(&self, i: usize) -> u16 {
        match self {
            ValuesRef::U8(v) => v[i] as u16,
            ValuesRef::U16(v) => v[i],
            ValuesRef::Split(v) => v.get(i),
        }
    }

    /// G(range).
    ///
    /// # Panics
    /// If the range is not inside `0..len()`.
    pub fn slice(&self, range: impl std::ops::RangeBounds<usize>) -> ValuesRef<'a> {
        let range = (range.start_bound().cloned(), range.end_bound().cloned());
        match *self {
            ValuesRef::U8(v) => ValuesRef::U8(&v[range]),
            ValuesRef::U16(v) => ValuesRef::U16(&v[range]),
            ValuesRef::Split(v) => {
                use std::ops::Bound;
                let from = match range.0 {
                    Bound::Included(a) => a,
                    Bound::Excluded(a) => a + 1,
                    Bound::Unbounded => 0,
                };
                let to = match range.1 {
                    Bound::Included(b) => b + 1,
                    Bound::Excluded(b) => b,
                    Bound::Unbounded => v.len(),
                };
                ValuesRef::Split(v.slice(from, to))
            }
        }
    }

    /// G(0..len()) in order.
    pub fn iter(&self) -> Iter<'a> {
        match *self {
            ValuesRef::U8(v) => Iter::U8(v.iter()),
            ValuesRef::U16(v) => Iter::U16(v.iter()),
            ValuesRef::Split(v) => v.iter(),
        }
    }

    /// The values as `u16` (a copy).
    pub fn to_vec(&self) -> Vec<u16> {
        self.iter().collect()
    }

    /// The values as `u16`: borrowed when they are, else a copy.
    pub fn to_u16(&self) -> std::borrow::Cow<'a, [u16]> {
        match *self {
            ValuesRef::U16(v) => std::borrow::Cow::Borrowed(v),
            _ => std::borrow::Cow::Owned(self.iter().collect()),
        }
    }
}

/// Counts of values, as a histogram: `counts()[v]` is how many of the values added were `v`.
///
/// Why not `counts[v] += 1` in a loop: a sequence's values repeat (0.16 takes a few values
/// over and over), and each increment of one counter waits for the one before it (a load, an
/// add and a store in a chain, several cycles each). Four tables, one per value in four, let
/// four increments run at once: the end-of-run summary of 0.16 to 2^25, one serial pass on
/// the lead thread while the pipeline's threads are gone, took 0.75–1.2% of a two-thread run's
/// CPU samples with one table and 0.49–0.56% with four (`perf record`, session 27).
#[derive(Debug, Clone)]
pub struct ValueCounter {
    /// Four tables of `width` counts, side by side.
    tables: Vec<u32>,
    width: usize,
    /// Values added since the tables were last folded into `total` (each table holds at most a
    /// quarter of them, so folding every 2^33 keeps them below `u32::MAX`).
    pending: u64,
    total: Vec<u64>,
}

impl Default for ValueCounter {
    fn default() -> Self {
        Self::new()
    }
}

impl ValueCounter {
    /// No values yet.
    pub fn new() -> Self {
        ValueCounter {
            tables: Vec::new(),
            width: 0,
            pending: 0,
            total: Vec::new(),
        }
    }

    /// Count `values`.
    pub fn add<V: Value>(&mut self, values: &[V]) {
        // tables as wide as the values need (a pass the compiler vectorises): a short
        // sequence of u16 values must not pay for 65,536 counts a table
        let Some(top) = values.iter().map(|v| v.get()).max() else {
            return;
        };
        let need = (top as usize + 1).next_power_of_two();
        if self.width < need {
            self.fold();
            self.width = need;
            self.tables = vec![0; 4 * need];
        }
        for chunk in values.chunks(1 << 32) {
            if self.pending + chunk.len() as u64 > 1 << 33 {
                self.fold();
            }
            self.pending += chunk.len() as u64;
            let (t0, rest) = self.tables.split_at_mut(self.width);
            let (t1, rest) = rest.split_at_mut(self.width);
            let (t2, t3) = rest.split_at_mut(self.width);
            let quads = chunk.chunks_exact(4);
            for &v in quads.remainder() {
                t0[v.get() as usize] += 1;
            }
            for q in quads {
                t0[q[0].get() as usize] += 1;
                t1[q[1].get() as usize] += 1;
                t2[q[2].get() as usize] += 1;
                t3[q[3].get() as usize] += 1;
            }
        }
    }

    /// Count the values of `values`, whatever their width.
    pub fn add_ref(&mut self, values: ValuesRef<'_>) {
        match values {
            ValuesRef::U8(v) => self.add(v),
            ValuesRef::U16(v) => self.add(v),
            ValuesRef::Split(v) => {
                let h = v.head.len().min(v.bytes.len());
                self.add(&v.head[v.from.min(h)..h]);
                self.add(&v.bytes[v.from.max(h)..]);
            }
        }
    }

    fn fold(&mut self) {
        if self.total.len() < self.width {
            self.total.resize(self.width, 0);
        }
        for table in self.tables.chunks_exact_mut(self.width.max(1)) {
            for (t, c) in self.total.iter_mut().zip(table.iter_mut()) {
                *t += u64::from(std::mem::take(c));
            }
        }
        self.pending = 0;
    }

    /// The counts, `counts[v]` for `v` up to the largest value added (empty when none was).
    pub fn counts(mut self) -> Vec<u64> {
        self.fold();
        let len = self.total.iter().rposition(|&c| c > 0).map_or(0, |v| v + 1);
        self.total.truncate(len);
        self.total
    }
}

impl PartialEq for ValuesRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl PartialEq<[u16]> for ValuesRef<'_> {
    fn eq(&self, other: &[u16]) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, &b)| a == b)
    }
}

impl<'a> From<&'a [u16]> for ValuesRef<'a> {
    fn from(values: &'a [u16]) -> Self {
        ValuesRef::U16(values)
    }
}

impl<'a> From<&'a Values> for ValuesRef<'a> {
    fn from(values: &'a Values) -> Self {
        values.as_ref()
    }
}

impl<'a> From<&'a Vec<u16>> for ValuesRef<'a> {
    fn from(values: &'a Vec<u16>) -> Self {
        ValuesRef::U16(values)
    }
}

/// The iterator of [`Values::iter`].
#[derive(Debug, Clone)]
pub enum Iter<'a> {
    /// Over bytes.
    U8(std::slice::Iter<'a, u8>),
    /// Over `u16`.
    U16(std::slice::Iter<'a, u16>),
    /// Over `u16`, then over bytes of [`Odd8`].
    Split(std::slice::Iter<'a, u16>, std::slice::Iter<'a, Odd8>),
}

impl Iterator for Iter<'_> {
    type Item = u16;
    #[inline]
    fn next(&mut self) -> Option<u16> {
        match self {
            Iter::U8(i) => i.next().map(|&b| b as u16),
            Iter::U16(i) => i.next().copied(),
            Iter::Split(h, r) => h.next().copied().or_else(|| r.next().map(|b| b.get())),
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Iter::U8(i) => i.size_hint(),
            Iter::U16(i) => i.size_hint(),
            Iter::Split(h, r) => {
                let n = h.len() + r.len();
                (n, Some(n))
            }
        }
    }
    fn nth(&mut self, n: usize) -> Option<u16> {
        match self {
            Iter::U8(i) => i.nth(n).map(|&b| b as u16),
            Iter::U16(i) => i.nth(n).copied(),
            Iter::Split(h, r) => {
                if n < h.len() {
                    h.nth(n).copied()
                } else {
                    let skip = n - h.len();
                    h.nth(h.len()); // (exhausts it)
                    r.nth(skip).map(|b| b.get())
                }
            }
        }
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<u16> {
        match self {
            Iter::U8(i) => i.next_back().map(|&b| b as u16),
            Iter::U16(i) => i.next_back().copied(),
            Iter::Split(h, r) => r
                .next_back()
                .map(|b| b.get())
                .or_else(|| h.next_back().copied()),
        }
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts of a plain loop.
    fn plain(values: &[u16]) -> Vec<u64> {
        let mut counts = Vec::new();
        for &v in values {
            if v as usize >= counts.len() {
                counts.resize(v as usize + 1, 0);
            }
            counts[v as usize] += 1;
        }
        counts
    }

    #[test]
    fn the_counter_counts_as_a_plain_loop() {
        // lengths around the four tables' stride, runs of one value, bytes then u16s
        let mut x = 7u32;
        let mut all = Vec::new();
        for len in [0usize, 1, 3, 4, 5, 9, 1000, 4099] {
            let values: Vec<u16> = (0..len)
                .map(|i| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    if i % 7 < 3 {
                        5
                    } else {
                        ((x >> 16) % 300) as u16
                    }
                })
                .collect();
            let mut counter = ValueCounter::new();
            counter.add(&values);
            assert_eq!(counter.counts(), plain(&values), "{len}");
            // the same values in pieces, the small ones as bytes first
            let (small, wide): (Vec<u16>, Vec<u16>) = values.iter().partition(|&&v| v < 256);
            let bytes: Vec<u8> = small.iter().map(|&v| v as u8).collect();
            let mut counter = ValueCounter::new();
            counter.add(&bytes[..bytes.len() / 2]);
            counter.add_ref(ValuesRef::U8(&bytes[bytes.len() / 2..]));
            counter.add(&wide);
            assert_eq!(counter.counts(), plain(&values), "{len} in pieces");
            all.extend(values);
        }
        // the folds into the u64 totals keep every count (forced here after every piece)
        let mut counter = ValueCounter::new();
        for piece in all.chunks(11) {
            counter.add(piece);
            counter.fold();
        }
        assert_eq!(counter.counts(), plain(&all));
        assert!(ValueCounter::new().counts().is_empty());
    }

    #[test]
    fn a_byte_store_widens_at_the_first_value_past_255_and_keeps_every_value() {
        let mut v = Values::new(true);
        for x in 0..=255u16 {
            v.push(x);
        }
        assert_eq!(v.value_bytes(), 1);
        v.push(256);
        assert_eq!(v.value_bytes(), 2);
        v.push(7);
        let want: Vec<u16> = (0..=256).chain([7]).collect();
        assert_eq!(v, want);
        assert_eq!(v.iter().next_back(), Some(7));
        assert_eq!(v.get(256), 256);
        assert_eq!(Values::from_u16(vec![1, 255], true).value_bytes(), 1);
        assert_eq!(Values::from_u16(vec![1, 256], true).value_bytes(), 2);
        assert_eq!(Values::from_u16(vec![1, 2], false).value_bytes(), 2);
        assert_eq!(
            serde_json::to_string(&Values::from_u16(vec![3, 200], true)).unwrap(),
            "[3,200]"
        );
    }
}
