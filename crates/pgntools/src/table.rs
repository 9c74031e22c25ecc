//! Games as rows of an Arrow table, and Parquet files of them: what `--format parquet` writes.
//!
//! The columns are those of the Hugging Face `Lichess/standard-chess-games` dataset, with its
//! names and types, so that a query written for one reads the other:
//!
//! | column | type | from |
//! | --- | --- | --- |
//! | `Event`, `Site`, `White`, `Black`, `Result`, `WhiteTitle`, `BlackTitle` | string | the tag |
//! | `WhiteElo`, `BlackElo`, `WhiteRatingDiff`, `BlackRatingDiff` | int16 | the tag (`+11` reads) |
//! | `UTCDate` | date32 | the tag, when it is a whole date (`2024.05.31`) |
//! | `UTCTime` | time32 (seconds; milliseconds in Parquet, see below) | the tag (`13:45:00`) |
//! | `ECO`, `Opening`, `Termination`, `TimeControl` | string | the tag |
//! | `movetext` | string, never null | the movetext as written, on one line, with its result |
//!
//! A tag that is missing, or whose value does not read as the column's type (`?`, an Elo of
//! `-`, a partial date), is a null. [`Columns`] adds per-ply lists for the main line, one item
//! per ply: `uci` (the moves in UCI notation), `clock_ms` (the `[%clk]` after the move, in
//! milliseconds), `eval_cp` and `eval_mate` (the `[%eval]` after the move, from White's point of
//! view, in centipawns or in moves to mate); an item is null where the ply has none.
//!
//! A [`Row`] is what [`select`](crate::select()) gives for each game with
//! [`Format::Row`](crate::Format::Row); a [`TableBuilder`] gathers rows into Arrow
//! [`RecordBatch`]es; a [`ParquetWriter`] writes them to one file, a [`PartitionedParquet`] to
//! one file per month in Hive-style directories (`year=2024/month=05/part-0.parquet`), which
//! DuckDB, Spark and DataFusion read as partition columns.
//!
//! Parquet has no time of day in seconds: the Parquet files hold `UTCTime` in milliseconds (a
//! `TIME` to DuckDB and Spark, `time32[ms]` to pyarrow), as pyarrow writes a `time32[s]` column,
//! the dataset's own files among them. (Arrow's writer would store seconds as a bare integer.)
//!
//! Memory: a builder holds at most [`BATCH_ROWS`] rows or about [`BATCH_BYTES`] of text; a
//! writer adds the row group it is encoding, at most about [`ROW_GROUP_BYTES`].

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::builder::{
    ArrayBuilder, Date32Builder, Int16Builder, Int32Builder, ListBuilder, StringBuilder,
    Time32SecondBuilder,
};
use arrow_array::cast::AsArray;
use arrow_array::types::{Time32MillisecondType, Time32SecondType};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use caissa_notation::pgn::commands::Score;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;

use crate::filter::date_range;

/// Rows a [`TableBuilder`] holds before it is full.
pub const BATCH_ROWS: usize = 8192;

/// Bytes of text (movetext, names, moves) a [`TableBuilder`] holds before it is full.
pub const BATCH_BYTES: usize = 64 << 20;

/// About how many encoded bytes a Parquet row group holds before it is written out.
pub const ROW_GROUP_BYTES: usize = 32 << 20;

/// The per-ply columns to add to the dataset's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Columns {
    /// `uci`: the main line's moves in UCI notation (`0000` for a null move).
    pub uci: bool,
    /// `clock_ms`: the clock after each move, from `[%clk]`.
    pub clocks: bool,
    /// `eval_cp` and `eval_mate`: the evaluation after each move, from `[%eval]`.
    pub evals: bool,
}

impl Columns {
    /// The names read by [`Columns::from_str`](core::str::FromStr), comma-separated.
    pub const NAMES: &'static [&'static str] = &["uci", "clocks", "evals"];
}

impl core::str::FromStr for Columns {
    type Err = crate::ParseNameError;

    /// A comma-separated list of [`Columns::NAMES`].
    fn from_str(text: &str) -> Result<Columns, crate::ParseNameError> {
        let mut columns = Columns::default();
        for name in text.split(',') {
            let flag = crate::select::by_name(
                name,
                Columns::NAMES,
                &[Column::Uci, Column::Clocks, Column::Evals],
            )?;
            match flag {
                Column::Uci => columns.uci = true,
                Column::Clocks => columns.clocks = true,
                Column::Evals => columns.evals = true,
            }
        }
        Ok(columns)
    }
}

/// One of [`Columns`], for reading them by name.
#[derive(Clone, Copy)]
enum Column {
    Uci,
    Clocks,
    Evals,
}

/// How a tag column's text is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Text,
    Int16,
    Date,
    Time,
}

/// The tag columns, in the dataset's order; `movetext` follows.
const TAG_COLUMNS: [(&str, Kind); 17] = [
    ("Event", Kind::Text),
    ("Site", Kind::Text),
    ("White", Kind::Text),
    ("Black", Kind::Text),
    ("Result", Kind::Text),
    ("WhiteTitle", Kind::Text),
    ("BlackTitle", Kind::Text),
    ("WhiteElo", Kind::Int16),
    ("BlackElo", Kind::Int16),
    ("WhiteRatingDiff", Kind::Int16),
    ("BlackRatingDiff", Kind::Int16),
    ("UTCDate", Kind::Date),
    ("UTCTime", Kind::Time),
    ("ECO", Kind::Text),
    ("Opening", Kind::Text),
    ("Termination", Kind::Text),
    ("TimeControl", Kind::Text),
];

/// The index of `UTCDate` in [`TAG_COLUMNS`].
const UTC_DATE: usize = 11;

/// The index of `UTCTime` in [`TAG_COLUMNS`].
const UTC_TIME: usize = 12;

/// The schema of a table with these per-ply columns.
#[must_use]
pub fn schema(columns: Columns) -> Schema {
    let mut fields: Vec<Field> = TAG_COLUMNS
        .iter()
        .map(|&(name, kind)| Field::new(name, data_type(kind), true))
        .collect();
    fields.push(Field::new("movetext", DataType::Utf8, false));
    let list = |name: &str, item: DataType, nullable: bool| {
        Field::new_list(name, Field::new_list_field(item, nullable), false)
    };
    if columns.uci {
        fields.push(list("uci", DataType::Utf8, false));
    }
    if columns.clocks {
        fields.push(list("clock_ms", DataType::Int32, true));
    }
    if columns.evals {
        fields.push(list("eval_cp", DataType::Int32, true));
        fields.push(list("eval_mate", DataType::Int32, true));
    }
    Schema::new(fields)
}

fn data_type(kind: Kind) -> DataType {
    match kind {
        Kind::Text => DataType::Utf8,
        Kind::Int16 => DataType::Int16,
        Kind::Date => DataType::Date32,
        Kind::Time => DataType::Time32(TimeUnit::Second),
    }
}

/// Bytes reserved for a row's tag values (a lichess game's take about 150), so that its text
/// is allocated once.
const TAG_BYTES: usize = 256;

/// One selected game as the table's values; made by [`select`](crate::select()) with
/// [`Format::Row`](crate::Format::Row).
#[derive(Clone, Debug, Default)]
pub struct Row {
    /// The values of the [`TAG_COLUMNS`] tags as written, and the movetext on one line, one
    /// after the other: one string rather than one each, since a row is made on one thread
    /// and dropped on another, where each allocation costs twice.
    text: String,
    /// Where each column's value is in `text`; `None` for a tag the game lacks.
    tag_spans: [Option<Range<usize>>; 17],
    /// Where the movetext is in `text`.
    movetext: Range<usize>,
    /// The main line in UCI notation, moves separated by spaces (when asked for).
    uci: String,
    /// The clock after each main-line ply, in milliseconds (when asked for).
    clocks: Vec<Option<i32>>,
    /// The evaluation after each main-line ply (when asked for).
    evals: Vec<Option<Score>>,
}

/// Rows are equal when their values are, whatever the order their tags were read in.
impl PartialEq for Row {
    fn eq(&self, other: &Row) -> bool {
        self.tag_values().eq(other.tag_values())
            && self.movetext() == other.movetext()
            && self.uci == other.uci
            && self.clocks == other.clocks
            && self.evals == other.evals
    }
}

impl Eq for Row {}

impl Row {
    /// A row of these tags and this movetext, without per-ply values. Of a tag given twice,
    /// the first counts, as for the filters ([`Tags::get`](caissa_notation::pgn::Tags::get)).
    pub(crate) fn new<'a>(
        tags: impl IntoIterator<Item = (&'a str, &'a str)>,
        movetext: &str,
    ) -> Row {
        let mut row = Row {
            text: String::with_capacity(TAG_BYTES + movetext.len()),
            ..Row::default()
        };
        for (name, value) in tags {
            if let Some(i) = TAG_COLUMNS.iter().position(|&(n, _)| n == name)
                && row.tag_spans[i].is_none()
            {
                row.set_tag(i, value);
            }
        }
        let start = row.text.len();
        row.text.push_str(movetext);
        row.movetext = start..row.text.len();
        row
    }

    /// Sets the value of the `i`th of the [`TAG_COLUMNS`].
    fn set_tag(&mut self, i: usize, value: &str) {
        let start = self.text.len();
        self.text.push_str(value);
        self.tag_spans[i] = Some(start..self.text.len());
    }

    /// The values of the [`TAG_COLUMNS`] tags, in their order.
    fn tag_values(&self) -> impl Iterator<Item = Option<&str>> {
        self.tag_spans
            .iter()
            .map(|span| span.clone().map(|span| &self.text[span]))
    }

    /// Sets the per-ply values.
    pub(crate) fn with_plies(
        mut self,
        uci: String,
        clocks: Vec<Option<i32>>,
        evals: Vec<Option<Score>>,
    ) -> Row {
        self.uci = uci;
        self.clocks = clocks;
        self.evals = evals;
        self
    }

    /// The value of a dataset tag (`"WhiteElo"`), as written in the game.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        let i = TAG_COLUMNS.iter().position(|&(n, _)| n == name)?;
        self.tag_values().nth(i).flatten()
    }

    /// The movetext as the `movetext` column holds it.
    #[must_use]
    pub fn movetext(&self) -> &str {
        &self.text[self.movetext.clone()]
    }

    /// The year and month of `UTCDate`, for [`PartitionedParquet`]; `None` without a whole
    /// date.
    #[must_use]
    pub fn year_month(&self) -> Option<(u32, u32)> {
        let date = date_value(self.tag_values().nth(UTC_DATE).flatten()?)?;
        Some((date / 10_000, date / 100 % 100))
    }

    /// Bytes of text the row adds to a builder.
    fn text_bytes(&self) -> usize {
        self.text.len() + self.uci.len()
    }
}

/// A tag's value as its column's type, written as text: an integer, `2024-05-31`, `13:45:00`;
/// `None` for a null.
fn typed_text(kind: Kind, value: Option<&str>) -> Option<String> {
    let value = value?;
    match kind {
        Kind::Text => Some(value.to_owned()),
        Kind::Int16 => int16_value(value).map(|n| n.to_string()),
        Kind::Date => date_value(value)
            .map(|d| format!("{:04}-{:02}-{:02}", d / 10_000, d / 100 % 100, d % 100)),
        Kind::Time => {
            time_value(value).map(|t| format!("{:02}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60))
        }
    }
}

/// The names of the columns of [`schema`]`(columns)`, in order.
#[must_use]
pub fn column_names(columns: Columns) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = TAG_COLUMNS.iter().map(|&(name, _)| name).collect();
    names.push("movetext");
    let plies: [(bool, &[&'static str]); 3] = [
        (columns.uci, &["uci"]),
        (columns.clocks, &["clock_ms"]),
        (columns.evals, &["eval_cp", "eval_mate"]),
    ];
    for (wanted, more) in plies {
        if wanted {
            names.extend_from_slice(more);
        }
    }
    names
}

/// The header line of [`Row::write_csv`]'s lines, with its newline.
#[must_use]
pub fn csv_header(columns: Columns) -> String {
    let mut line = column_names(columns).join(",");
    line.push('\n');
    line
}

/// Appends a CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break.
fn csv_field(out: &mut String, field: &str) {
    if field.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&field.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(field);
    }
}

/// Appends a JSON string: the text between quotes, with `"`, `\\` and control characters
/// escaped; the runs between them copied whole.
fn json_string(out: &mut String, text: &str) {
    out.reserve(text.len() + 2);
    out.push('"');
    let mut rest = text;
    while let Some(at) = rest
        .bytes()
        .position(|b| b == b'"' || b == b'\\' || b < 0x20)
    {
        out.push_str(&rest[..at]);
        match rest.as_bytes()[at] {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            control => out.push_str(&format!("\\u{control:04x}")),
        }
        // An ASCII byte: the rest starts at a character.
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
    out.push('"');
}

impl Row {
    /// The per-ply lists `columns` asks for, each item as text (`None` for a null).
    fn ply_lists(&self, columns: Columns) -> Vec<Vec<Option<String>>> {
        let mut lists = Vec::new();
        if columns.uci {
            lists.push(
                self.uci
                    .split_ascii_whitespace()
                    .map(|m| Some(m.to_owned()))
                    .collect(),
            );
        }
        if columns.clocks {
            lists.push(
                self.clocks
                    .iter()
                    .map(|c| c.map(|c| c.to_string()))
                    .collect(),
            );
        }
        if columns.evals {
            let part = |mate: bool| {
                self.evals
                    .iter()
                    .map(|e| match (e, mate) {
                        (Some(Score::Centipawns(n)), false) | (Some(Score::Mate(n)), true) => {
                            Some(n.to_string())
                        }
                        _ => None,
                    })
                    .collect()
            };
            lists.push(part(false));
            lists.push(part(true));
        }
        lists
    }

    /// Appends the row as a CSV line (with its newline) under [`csv_header`]`(columns)`: the
    /// values as the table's types write them (`2024-05-31`, `13:45:00`), a null as an empty
    /// field; a per-ply list as its items separated by spaces, a null item as `-`.
    pub fn write_csv(&self, columns: Columns, out: &mut String) {
        for (&(_, kind), value) in TAG_COLUMNS.iter().zip(self.tag_values()) {
            if let Some(text) = typed_text(kind, value) {
                csv_field(out, &text);
            }
            out.push(',');
        }
        csv_field(out, self.movetext());
        for list in self.ply_lists(columns) {
            out.push(',');
            let items: Vec<&str> = list.iter().map(|i| i.as_deref().unwrap_or("-")).collect();
            csv_field(out, &items.join(" "));
        }
        out.push('\n');
    }

    /// Appends the row as one line of JSON (with its newline): an object with a member per
    /// column of [`schema`]`(columns)`, numbers as numbers, dates and times as in
    /// [`write_csv`](Row::write_csv), nulls as `null`, per-ply lists as arrays.
    pub fn write_json(&self, columns: Columns, out: &mut String) {
        let names = column_names(columns);
        out.push('{');
        for (i, (&(name, kind), value)) in TAG_COLUMNS.iter().zip(self.tag_values()).enumerate() {
            if i > 0 {
                out.push(',');
            }
            json_string(out, name);
            out.push(':');
            match (kind, typed_text(kind, value)) {
                (_, None) => out.push_str("null"),
                (Kind::Int16, Some(n)) => out.push_str(&n),
                (_, Some(text)) => json_string(out, &text),
            }
        }
        out.push_str(",\"movetext\":");
        json_string(out, self.movetext());
        let list_names = &names[TAG_COLUMNS.len() + 1..];
        for (name, list) in list_names.iter().zip(self.ply_lists(columns)) {
            out.push(',');
            json_string(out, name);
            out.push_str(":[");
            let numeric = *name != "uci";
            for (j, item) in list.iter().enumerate() {
                if j > 0 {
                    out.push(',');
                }
                match item {
                    None => out.push_str("null"),
                    Some(item) if numeric => out.push_str(item),
                    Some(item) => json_string(out, item),
                }
            }
            out.push(']');
        }
        out.push_str("}\n");
    }
}

/// A whole date (`2024.05.31`) as `yyyymmdd`, checked against the month's length.
fn date_value(text: &str) -> Option<u32> {
    let (first, last) = date_range(text)?;
    let (year, month, day) = (first / 10_000, first / 100 % 100, first % 100);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    (first == last && day <= days).then_some(first)
}

/// Days from 1970-01-01 to a `yyyymmdd` date of the proleptic Gregorian calendar.
fn days_since_epoch(date: u32) -> i32 {
    let (year, month, day) = (
        i64::from(date / 10_000),
        i64::from(date / 100 % 100),
        i64::from(date % 100),
    );
    // Years counted from March, so that the leap day ends a year.
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    // Years 0..=9999 keep this within i32.
    (era * 146_097 + day_of_era - 719_468) as i32
}

/// `hh:mm:ss` as seconds since midnight.
fn time_value(text: &str) -> Option<i32> {
    let mut parts = text.trim().split(':');
    let mut seconds = 0;
    for limit in [24, 60, 60] {
        let part = parts.next()?;
        if part.len() != 2 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: i32 = part.parse().ok()?;
        if n >= limit {
            return None;
        }
        seconds = seconds * 60 + n;
    }
    parts.next().is_none().then_some(seconds)
}

/// An integer tag (`1500`, `+11`, `-9`) that fits an int16.
fn int16_value(text: &str) -> Option<i16> {
    let text = text.trim();
    text.strip_prefix('+').unwrap_or(text).parse().ok()
}

/// A column being built.
#[derive(Debug)]
enum ColumnBuilder {
    Text(StringBuilder),
    Int16(Int16Builder),
    Date(Date32Builder),
    Time(Time32SecondBuilder),
}

impl ColumnBuilder {
    fn new(kind: Kind) -> ColumnBuilder {
        match kind {
            Kind::Text => ColumnBuilder::Text(StringBuilder::new()),
            Kind::Int16 => ColumnBuilder::Int16(Int16Builder::new()),
            Kind::Date => ColumnBuilder::Date(Date32Builder::new()),
            Kind::Time => ColumnBuilder::Time(Time32SecondBuilder::new()),
        }
    }

    fn push(&mut self, value: Option<&str>) {
        match self {
            ColumnBuilder::Text(b) => b.append_option(value),
            ColumnBuilder::Int16(b) => b.append_option(value.and_then(int16_value)),
            ColumnBuilder::Date(b) => {
                b.append_option(value.and_then(date_value).map(days_since_epoch));
            }
            ColumnBuilder::Time(b) => b.append_option(value.and_then(time_value)),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            ColumnBuilder::Text(b) => Arc::new(b.finish()),
            ColumnBuilder::Int16(b) => Arc::new(b.finish()),
            ColumnBuilder::Date(b) => Arc::new(b.finish()),
            ColumnBuilder::Time(b) => Arc::new(b.finish()),
        }
    }
}

/// Gathers [`Row`]s into [`RecordBatch`]es of [`schema`]`(columns)`.
///
/// ```
/// use core::ops::ControlFlow;
/// use caissa_pgntools::table::{Columns, TableBuilder};
/// use caissa_pgntools::{Format, SelectOptions, Selection, select};
///
/// let pgn = "[WhiteElo \"2500\"]\n[UTCDate \"2024.05.31\"]\n\n1. e4 {[%clk 0:03:00]} e5 1-0\n";
/// let columns = Columns { uci: true, clocks: true, ..Columns::default() };
/// let options = SelectOptions { format: Format::Row(columns), ..SelectOptions::default() };
/// let mut table = TableBuilder::new(columns);
/// select(pgn.as_bytes(), &options, 1, |game| {
///     if let Selection::Row(row) = game.selection {
///         table.push(&row);
///     }
///     ControlFlow::Continue(())
/// })?;
/// let batch = table.finish();
/// assert_eq!(batch.num_rows(), 1);
/// assert_eq!(batch.schema().field(7).name(), "WhiteElo");
/// assert_eq!(batch.num_columns(), 18 + 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct TableBuilder {
    schema: SchemaRef,
    columns: Columns,
    tags: Vec<ColumnBuilder>,
    movetext: StringBuilder,
    uci: ListBuilder<StringBuilder>,
    clocks: ListBuilder<Int32Builder>,
    eval_cp: ListBuilder<Int32Builder>,
    eval_mate: ListBuilder<Int32Builder>,
    rows: usize,
    bytes: usize,
}

impl TableBuilder {
    /// An empty table with the dataset's columns and these per-ply ones.
    #[must_use]
    pub fn new(columns: Columns) -> TableBuilder {
        let list = |item: DataType, nullable: bool| Field::new_list_field(item, nullable);
        TableBuilder {
            schema: Arc::new(schema(columns)),
            columns,
            tags: TAG_COLUMNS
                .iter()
                .map(|&(_, kind)| ColumnBuilder::new(kind))
                .collect(),
            movetext: StringBuilder::new(),
            uci: ListBuilder::new(StringBuilder::new()).with_field(list(DataType::Utf8, false)),
            clocks: ListBuilder::new(Int32Builder::new()).with_field(list(DataType::Int32, true)),
            eval_cp: ListBuilder::new(Int32Builder::new()).with_field(list(DataType::Int32, true)),
            eval_mate: ListBuilder::new(Int32Builder::new())
                .with_field(list(DataType::Int32, true)),
            rows: 0,
            bytes: 0,
        }
    }

    /// The schema of the batches.
    #[must_use]
    pub fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }

    /// Adds a row.
    pub fn push(&mut self, row: &Row) {
        for (column, value) in self.tags.iter_mut().zip(row.tag_values()) {
            column.push(value);
        }
        self.movetext.append_value(row.movetext());
        if self.columns.uci {
            for word in row.uci.split_ascii_whitespace() {
                self.uci.values().append_value(word);
            }
            self.uci.append(true);
        }
        if self.columns.clocks {
            self.clocks.values().extend(row.clocks.iter().copied());
            self.clocks.append(true);
        }
        if self.columns.evals {
            for eval in &row.evals {
                let (cp, mate) = match eval {
                    Some(Score::Centipawns(cp)) => (Some(*cp), None),
                    Some(Score::Mate(n)) => (None, Some(*n)),
                    None => (None, None),
                };
                self.eval_cp.values().append_option(cp);
                self.eval_mate.values().append_option(mate);
            }
            self.eval_cp.append(true);
            self.eval_mate.append(true);
        }
        self.rows += 1;
        self.bytes += row.text_bytes();
    }

    /// How many rows it holds.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.rows
    }

    /// Whether it holds no row.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Whether it holds [`BATCH_ROWS`] rows or [`BATCH_BYTES`] of text: time to
    /// [`finish`](TableBuilder::finish).
    #[must_use]
    pub const fn is_full(&self) -> bool {
        self.rows >= BATCH_ROWS || self.bytes >= BATCH_BYTES
    }

    /// The rows as a batch; the builder is empty again.
    #[must_use]
    pub fn finish(&mut self) -> RecordBatch {
        let mut arrays: Vec<ArrayRef> = self.tags.iter_mut().map(ColumnBuilder::finish).collect();
        arrays.push(Arc::new(self.movetext.finish()));
        if self.columns.uci {
            arrays.push(Arc::new(self.uci.finish()));
        }
        if self.columns.clocks {
            arrays.push(Arc::new(self.clocks.finish()));
        }
        if self.columns.evals {
            arrays.push(Arc::new(self.eval_cp.finish()));
            arrays.push(Arc::new(self.eval_mate.finish()));
        }
        self.rows = 0;
        self.bytes = 0;
        debug_assert!(self.uci.is_empty() && self.movetext.is_empty());
        RecordBatch::try_new(self.schema(), arrays)
            .expect("the builders make the schema's columns, all of one length")
    }
}

/// A Parquet file could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteParquetError {
    /// A file of a [`PartitionedParquet`] could not be opened.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file, relative to the partitions' directory.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The Parquet encoder failed (its output could not be written, most often).
    #[error(transparent)]
    Parquet(#[from] ParquetError),
}

/// Writes rows to one Parquet file (zstd-compressed pages), of [`schema`] but for `UTCTime` in
/// milliseconds (see the module docs).
#[derive(Debug)]
pub struct ParquetWriter<W: Write + Send> {
    writer: ArrowWriter<W>,
    table: TableBuilder,
    /// The file's schema.
    schema: SchemaRef,
}

impl<W: Write + Send> ParquetWriter<W> {
    /// A file of [`schema`]`(columns)` written to `out`.
    ///
    /// # Errors
    ///
    /// The encoder's, if it cannot start.
    pub fn new(out: W, columns: Columns) -> Result<ParquetWriter<W>, WriteParquetError> {
        let table = TableBuilder::new(columns);
        let properties = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_max_row_group_bytes(Some(ROW_GROUP_BYTES))
            .build();
        let mut fields = table.schema().fields().to_vec();
        fields[UTC_TIME] = Arc::new(
            fields[UTC_TIME]
                .as_ref()
                .clone()
                .with_data_type(DataType::Time32(TimeUnit::Millisecond)),
        );
        let schema = Arc::new(Schema::new(fields));
        let writer = ArrowWriter::try_new(out, Arc::clone(&schema), Some(properties))?;
        Ok(ParquetWriter {
            writer,
            table,
            schema,
        })
    }

    /// Writes the rows gathered, `UTCTime` made milliseconds.
    fn write_batch(&mut self) -> Result<(), WriteParquetError> {
        let mut arrays = self.table.finish().columns().to_vec();
        let seconds = arrays[UTC_TIME].as_primitive::<Time32SecondType>();
        arrays[UTC_TIME] = Arc::new(seconds.unary::<_, Time32MillisecondType>(|s| s * 1000));
        let batch = RecordBatch::try_new(Arc::clone(&self.schema), arrays)
            .expect("the table's columns, UTCTime in the file's unit");
        Ok(self.writer.write(&batch)?)
    }

    /// Adds a row.
    ///
    /// # Errors
    ///
    /// The encoder's, when a full batch of rows cannot be written.
    pub fn push(&mut self, row: &Row) -> Result<(), WriteParquetError> {
        self.table.push(row);
        if self.table.is_full() {
            self.write_batch()?;
        }
        Ok(())
    }

    /// Writes what is left and the file's footer, and gives the output back.
    ///
    /// # Errors
    ///
    /// The encoder's.
    pub fn finish(mut self) -> Result<W, WriteParquetError> {
        if !self.table.is_empty() {
            self.write_batch()?;
        }
        Ok(self.writer.into_inner()?)
    }
}

/// Writes rows to one Parquet file per month of `UTCDate`, in Hive-style directories:
/// `year=2024/month=05/part-0.parquet`, and `year=NULL/month=NULL/part-0.parquet` for games
/// without a whole date (DuckDB reads `NULL` there as a null).
///
/// The caller opens the files: `open` is given each one's path (relative, to be put under a
/// directory of the caller's) at its month's first row. Each month written has its file open
/// until [`finish`](PartitionedParquet::finish), with its memory ([`TableBuilder`] and row
/// group).
pub struct PartitionedParquet<W: Write + Send, F: FnMut(&Path) -> io::Result<W>> {
    open: F,
    columns: Columns,
    files: BTreeMap<Option<(u32, u32)>, ParquetWriter<W>>,
}

impl<W: Write + Send, F: FnMut(&Path) -> io::Result<W>> core::fmt::Debug
    for PartitionedParquet<W, F>
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PartitionedParquet")
            .field("columns", &self.columns)
            .field("months", &self.files.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl<W: Write + Send, F: FnMut(&Path) -> io::Result<W>> PartitionedParquet<W, F> {
    /// Files of [`schema`]`(columns)`, opened by `open`.
    pub fn new(columns: Columns, open: F) -> PartitionedParquet<W, F> {
        PartitionedParquet {
            open,
            columns,
            files: BTreeMap::new(),
        }
    }

    /// Adds a row to its month's file, opening it at the month's first row.
    ///
    /// # Errors
    ///
    /// When the file cannot be opened, or the encoder's.
    pub fn push(&mut self, row: &Row) -> Result<(), WriteParquetError> {
        let month = row.year_month();
        let writer = match self.files.entry(month) {
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) => {
                let path = file_of(month);
                let out =
                    (self.open)(&path).map_err(|source| WriteParquetError::Io { path, source })?;
                entry.insert(ParquetWriter::new(out, self.columns)?)
            }
        };
        writer.push(row)
    }

    /// Finishes every file; gives each one's path and output back, in order of months (no
    /// date first).
    ///
    /// # Errors
    ///
    /// The first file that cannot be finished.
    pub fn finish(self) -> Result<Vec<(PathBuf, W)>, WriteParquetError> {
        self.files
            .into_iter()
            .map(|(month, writer)| Ok((file_of(month), writer.finish()?)))
            .collect()
    }
}

/// The file of a month (`None`: no whole date), relative to the directory of the partitions.
fn file_of(month: Option<(u32, u32)>) -> PathBuf {
    let (year, month) = month.map_or(("NULL".to_owned(), "NULL".to_owned()), |(y, m)| {
        (y.to_string(), format!("{m:02}"))
    });
    Path::new(&format!("year={year}"))
        .join(format!("month={month}"))
        .join("part-0.parquet")
}

#[cfg(test)]
mod tests {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Date32Type, Int16Type, Int32Type, Time32SecondType};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    use super::*;

    #[test]
    fn days_count_from_1970() {
        assert_eq!(days_since_epoch(19_700_101), 0);
        assert_eq!(days_since_epoch(19_691_231), -1);
        assert_eq!(days_since_epoch(20_000_301), 11_017);
        assert_eq!(days_since_epoch(20_240_531), 19_874);
        assert_eq!(days_since_epoch(101), -719_528);
    }

    #[test]
    fn tag_values_read_as_their_column_or_null() {
        assert_eq!(date_value("2024.02.29"), Some(20_240_229));
        assert_eq!(date_value("2023.02.29"), None);
        assert_eq!(date_value("2024.05.??"), None);
        assert_eq!(date_value("????.??.??"), None);
        assert_eq!(time_value("13:45:07"), Some(49_507));
        assert_eq!(time_value("24:00:00"), None);
        assert_eq!(time_value("1:00:00"), None);
        assert_eq!(int16_value("+11"), Some(11));
        assert_eq!(int16_value("-9"), Some(-9));
        assert_eq!(int16_value("?"), None);
        assert_eq!(int16_value("40000"), None);
    }

    fn sample_row() -> Row {
        Row::new(
            [
                ("Event", "Rated Blitz game"),
                ("WhiteElo", "1500"),
                ("BlackRatingDiff", "-9"),
                ("UTCDate", "2024.05.31"),
                ("UTCTime", "23:59:59"),
                ("BlackElo", "?"),
                ("Round", "-"),
            ],
            "1. e4 e5 1-0",
        )
        .with_plies(
            "e2e4 e7e5".to_owned(),
            vec![Some(180_000), None],
            vec![Some(Score::Centipawns(25)), Some(Score::Mate(-3))],
        )
    }

    #[test]
    fn a_row_becomes_typed_values() {
        let columns = Columns {
            uci: true,
            clocks: true,
            evals: true,
        };
        let mut table = TableBuilder::new(columns);
        table.push(&sample_row());
        table.push(&Row::new([], "*"));
        let batch = table.finish();
        assert!(table.is_empty());
        assert_eq!(batch.num_rows(), 2);
        let column = |name: &str| batch.column_by_name(name).expect(name);
        assert_eq!(
            column("Event").as_string::<i32>().value(0),
            "Rated Blitz game"
        );
        assert!(column("Event").is_null(1));
        assert_eq!(
            column("WhiteElo").as_primitive::<Int16Type>().value(0),
            1500
        );
        assert!(column("BlackElo").is_null(0));
        assert_eq!(
            column("BlackRatingDiff")
                .as_primitive::<Int16Type>()
                .value(0),
            -9
        );
        assert_eq!(
            column("UTCDate").as_primitive::<Date32Type>().value(0),
            19_874
        );
        assert_eq!(
            column("UTCTime")
                .as_primitive::<Time32SecondType>()
                .value(0),
            86_399
        );
        assert_eq!(column("movetext").as_string::<i32>().value(1), "*");
        let uci = column("uci").as_list::<i32>().value(0);
        assert_eq!(uci.as_string::<i32>().value(1), "e7e5");
        assert_eq!(column("uci").as_list::<i32>().value(1).len(), 0);
        let clocks = column("clock_ms").as_list::<i32>().value(0);
        assert_eq!(clocks.as_primitive::<Int32Type>().value(0), 180_000);
        assert!(clocks.is_null(1));
        let cp = column("eval_cp").as_list::<i32>().value(0);
        let mate = column("eval_mate").as_list::<i32>().value(0);
        assert_eq!(cp.as_primitive::<Int32Type>().value(0), 25);
        assert!(cp.is_null(1) && mate.is_null(0));
        assert_eq!(mate.as_primitive::<Int32Type>().value(1), -3);
    }

    #[test]
    fn a_tag_given_twice_counts_by_its_first_value() {
        let row = Row::new(
            [
                ("WhiteElo", "2400"),
                ("Event", "First"),
                ("WhiteElo", "1000"),
                ("Event", "Second"),
            ],
            "*",
        );
        let values: Vec<_> = row.tag_values().collect();
        assert_eq!((values[0], values[7]), (Some("First"), Some("2400")));
    }

    #[test]
    fn json_strings_escape_quotes_backslashes_and_control_characters() {
        let mut out = String::new();
        json_string(&mut out, "a\"b\\c\n\r\t\u{1}é}");
        assert_eq!(out, r#""a\"b\\c\n\r\t\u0001é}""#);
        out.clear();
        json_string(&mut out, "");
        assert_eq!(out, "\"\"");
    }

    #[test]
    fn rows_as_csv_and_json_lines() {
        let columns = Columns {
            uci: true,
            clocks: true,
            evals: true,
        };
        let mut row = sample_row();
        row.set_tag(1, "a \"b\", c");
        let mut csv = csv_header(columns);
        row.write_csv(columns, &mut csv);
        assert_eq!(
            csv,
            "Event,Site,White,Black,Result,WhiteTitle,BlackTitle,WhiteElo,BlackElo,\
             WhiteRatingDiff,BlackRatingDiff,UTCDate,UTCTime,ECO,Opening,Termination,\
             TimeControl,movetext,uci,clock_ms,eval_cp,eval_mate\n\
             Rated Blitz game,\"a \"\"b\"\", c\",,,,,,1500,,,-9,2024-05-31,23:59:59,,,,,\
             1. e4 e5 1-0,e2e4 e7e5,180000 -,25 -,- -3\n"
        );
        let mut json = String::new();
        row.write_json(columns, &mut json);
        assert_eq!(
            json,
            "{\"Event\":\"Rated Blitz game\",\"Site\":\"a \\\"b\\\", c\",\"White\":null,\
             \"Black\":null,\"Result\":null,\"WhiteTitle\":null,\"BlackTitle\":null,\
             \"WhiteElo\":1500,\"BlackElo\":null,\"WhiteRatingDiff\":null,\
             \"BlackRatingDiff\":-9,\"UTCDate\":\"2024-05-31\",\"UTCTime\":\"23:59:59\",\
             \"ECO\":null,\"Opening\":null,\"Termination\":null,\"TimeControl\":null,\
             \"movetext\":\"1. e4 e5 1-0\",\"uci\":[\"e2e4\",\"e7e5\"],\
             \"clock_ms\":[180000,null],\"eval_cp\":[25,null],\"eval_mate\":[null,-3]}\n"
        );
    }

    #[test]
    fn the_schema_is_the_datasets() {
        let schema = schema(Columns::default());
        let names: Vec<_> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(
            names,
            [
                "Event",
                "Site",
                "White",
                "Black",
                "Result",
                "WhiteTitle",
                "BlackTitle",
                "WhiteElo",
                "BlackElo",
                "WhiteRatingDiff",
                "BlackRatingDiff",
                "UTCDate",
                "UTCTime",
                "ECO",
                "Opening",
                "Termination",
                "TimeControl",
                "movetext"
            ]
        );
        assert_eq!(
            schema.field_with_name("UTCTime").ok().map(Field::data_type),
            Some(&DataType::Time32(TimeUnit::Second))
        );
        assert_eq!(
            "uci,evals".parse(),
            Ok(Columns {
                uci: true,
                evals: true,
                ..Columns::default()
            })
        );
        assert!("uci,clock".parse::<Columns>().is_err());
    }

    #[test]
    fn parquet_files_read_back_and_partition_by_month() {
        let mut files = PartitionedParquet::new(Columns::default(), |_| Ok(Vec::new()));
        let row = sample_row();
        for _ in 0..3 {
            files.push(&row).expect("written");
        }
        files
            .push(&Row::new([("UTCDate", "2024.04.01")], "*"))
            .expect("written");
        files.push(&Row::new([], "*")).expect("written");
        let written = files.finish().expect("finished");
        let names: Vec<_> = written.iter().map(|p| p.0.display().to_string()).collect();
        assert_eq!(
            names,
            [
                "year=NULL/month=NULL/part-0.parquet",
                "year=2024/month=04/part-0.parquet",
                "year=2024/month=05/part-0.parquet"
            ]
        );
        let path = std::env::temp_dir().join(format!("caissa-table-{}", std::process::id()));
        std::fs::write(&path, &written[2].1).expect("a temporary file");
        let file = std::fs::File::open(&path).expect("the temporary file");
        std::fs::remove_file(&path).expect("cleaned up");
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .expect("a parquet file")
            .build()
            .expect("a reader");
        let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().expect("batches");
        assert_eq!(batches.iter().map(RecordBatch::num_rows).sum::<usize>(), 3);
        // The dataset's schema, but for the time of day in milliseconds, which Parquet can hold
        // as a time (in seconds, arrow's writer stored a bare integer).
        let read_schema = batches[0].schema();
        for (read, ours) in read_schema
            .fields()
            .iter()
            .zip(schema(Columns::default()).fields())
        {
            if read.name() == "UTCTime" {
                assert_eq!(read.data_type(), &DataType::Time32(TimeUnit::Millisecond));
            } else {
                assert_eq!(read, ours);
            }
        }
        assert_eq!(
            read_schema.fields().len(),
            schema(Columns::default()).fields().len()
        );
        let times = batches[0].column_by_name("UTCTime").expect("UTCTime");
        assert_eq!(
            times.as_primitive::<Time32MillisecondType>().value(0),
            86_399_000
        );
        assert_eq!(
            batches[0]
                .column_by_name("movetext")
                .expect("movetext")
                .as_string::<i32>()
                .value(2),
            "1. e4 e5 1-0"
        );
    }
}
