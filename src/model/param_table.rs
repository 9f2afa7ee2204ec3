//! The parameter table: every simulation parameter described once — its scene-file key, symbol,
//! unit, allowed range and documentation — next to its field.
//!
//! Parameters come in groups ([`ParamGroup`]): the parameters every model shares
//! ([`crate::model::SimParams`]) and each model's own group (`BoidsParams`, `VicsekParams`,
//! `FishParams`, gathered in [`crate::model::models::ModelParams`]). A group is declared with
//! [`crate::param_group!`], which writes the struct, its `Default`, its table of [`ParamSpec`]s, access
//! by key, and the flat `key = value` form scene files and checkpoints use. Validation, the
//! `--set KEY=VALUE` and `--param NAME` of the command line, the nearest-key suggestions of their
//! errors, plot axis labels and the app's panel all read the table.

pub use crate::model::error::did_you_mean;
use crate::model::error::ParamError;

/// The allowed values of a parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// A number in `min ..= max` (NaN never).
    Number {
        /// Smallest allowed value.
        min: f64,
        /// Largest allowed value.
        max: f64,
    },
    /// A whole number in `min ..= max`.
    Integer {
        /// Smallest allowed value.
        min: u64,
        /// Largest allowed value.
        max: u64,
    },
    /// A number from `min` up to the value of the parameter `key` (e.g. `min_speed ≤ max_speed`).
    UpTo {
        /// Smallest allowed value.
        min: f64,
        /// The parameter bounding it from above.
        key: &'static str,
    },
    /// One of these names.
    Choice(&'static [&'static str]),
}

/// `min ..= max` as a [`Range::Number`].
pub const fn number(min: f64, max: f64) -> Range {
    Range::Number { min, max }
}

/// One parameter, described.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// Its key in scene files, checkpoints, `--set` and `--param` (`vicsek_eta`).
    pub key: &'static str,
    /// Its symbol in docs/model.md and plots (`η`), or "" when it has none.
    pub symbol: &'static str,
    /// Its unit (`rad`, `wu`, `wu/s`, `1/s`, …), or "" when dimensionless.
    pub unit: &'static str,
    /// Its allowed values.
    pub range: Range,
    /// What it is (the field's documentation).
    pub doc: &'static str,
}

impl ParamSpec {
    /// The axis label of a plot: the symbol (else the key) and the unit, e.g. `η (rad)`.
    pub fn label(&self) -> String {
        self.label_in(self.unit)
    }

    /// The label with `unit` in place of the table's (a unit that depends on other settings:
    /// [`crate::model::SimParams::label_of`]).
    pub fn label_in(&self, unit: &str) -> String {
        let name = if self.symbol.is_empty() {
            self.key
        } else {
            self.symbol
        };
        if unit.is_empty() {
            name.to_string()
        } else {
            format!("{name} ({unit})")
        }
    }
}

/// A parameter's value as the table sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamValue {
    /// A number (whole numbers too).
    Number(f64),
    /// A name (`wrap`, `vicsek`, …).
    Name(&'static str),
}

impl std::fmt::Display for ParamValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamValue::Number(x) => write!(f, "{x}"),
            ParamValue::Name(s) => write!(f, "{s}"),
        }
    }
}

/// `x` as the f64 of its shortest decimal form, so messages say `0.1`, not `0.10000000149011612`.
pub fn decimal(x: f32) -> f64 {
    x.to_string().parse().unwrap_or(x as f64)
}

/// The type of a parameter field: how the table reads its value.
pub trait ParamField {
    /// The value.
    fn param_value(&self) -> ParamValue;
}

impl ParamField for f32 {
    fn param_value(&self) -> ParamValue {
        ParamValue::Number(decimal(*self))
    }
}

impl ParamField for u32 {
    fn param_value(&self) -> ParamValue {
        ParamValue::Number(*self as f64)
    }
}

/// A group of parameters declared with [`crate::param_group!`].
pub trait ParamGroup: Default {
    /// Every parameter of the group (and of its nested groups), in declaration order.
    fn specs() -> Vec<&'static ParamSpec>;
    /// The value of the parameter `key`, when the group has it.
    fn get(&self, key: &str) -> Option<ParamValue>;
    /// Sets the parameter `key` from a TOML value (the form scene files write); `None` when the
    /// group has no such key.
    fn set_value(&mut self, key: &str, value: &toml::Value) -> Option<Result<(), String>>;
    /// Reads the value of `key` from a map being deserialised; `false` when the group has no such
    /// key (the value is then not consumed).
    fn deserialize_entry<'de, A: serde::de::MapAccess<'de>>(
        &mut self,
        key: &str,
        map: &mut A,
    ) -> Result<bool, A::Error>;
    /// Writes every parameter as `key = value` entries of a map.
    fn serialize_entries<M: serde::ser::SerializeMap>(&self, map: &mut M) -> Result<(), M::Error>;
}

/// Declares a group of parameters: the struct (each field with its documentation), its
/// `Default`, and its [`ParamGroup`] implementation (the table of [`ParamSpec`]s, access by key,
/// the flat map form). Nested groups (`groups { field: Type, }`) are parameters of the same flat
/// key space whose keys the outer group forwards.
///
/// ```ignore
/// param_group! {
///     /// The Vicsek model's parameters.
///     pub struct VicsekParams {
///         /// Noise amplitude η (rad).
///         eta: f32 = 2.0, key: "vicsek_eta", symbol: "η", unit: "rad",
///             range: number(0.0, std::f64::consts::TAU);
///     }
/// }
/// ```
#[macro_export]
macro_rules! param_group {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty = $default:expr, key: $key:literal, symbol: $sym:literal,
                    unit: $unit:literal, range: $range:expr;
            )*
        }
        $(groups {
            $(
                $(#[doc = $gdoc:literal])*
                $gfield:ident : $gty:ty,
            )*
        })?
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        $vis struct $name {
            $( $(#[doc = $doc])* pub $field: $ty, )*
            $($( $(#[doc = $gdoc])* pub $gfield: $gty, )*)?
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    $( $field: $default, )*
                    $($( $gfield: <$gty>::default(), )*)?
                }
            }
        }

        impl $name {
            /// The parameters declared in this group itself (not its nested groups).
            pub const OWN_SPECS: &'static [$crate::model::param_table::ParamSpec] = &[
                $(
                    $crate::model::param_table::ParamSpec {
                        key: $key,
                        symbol: $sym,
                        unit: $unit,
                        range: $range,
                        doc: concat!($($doc, "\n"),*),
                    },
                )*
            ];
        }

        impl $crate::model::param_table::ParamGroup for $name {
            fn specs() -> Vec<&'static $crate::model::param_table::ParamSpec> {
                #[allow(unused_mut)]
                let mut out: Vec<&'static $crate::model::param_table::ParamSpec> =
                    Self::OWN_SPECS.iter().collect();
                $($( out.extend(<$gty as $crate::model::param_table::ParamGroup>::specs()); )*)?
                out
            }

            fn get(&self, key: &str) -> Option<$crate::model::param_table::ParamValue> {
                match key {
                    $( $key => Some($crate::model::param_table::ParamField::param_value(&self.$field)), )*
                    _ => {
                        $($(
                            if let Some(v) = $crate::model::param_table::ParamGroup::get(&self.$gfield, key) {
                                return Some(v);
                            }
                        )*)?
                        None
                    }
                }
            }

            fn set_value(&mut self, key: &str, value: &toml::Value) -> Option<Result<(), String>> {
                match key {
                    $(
                        $key => Some(
                            $crate::model::param_table::read_field::<$ty>(&$range, value.clone())
                                .map(|v| self.$field = v),
                        ),
                    )*
                    _ => {
                        $($(
                            if let Some(r) = $crate::model::param_table::ParamGroup::set_value(&mut self.$gfield, key, value) {
                                return Some(r);
                            }
                        )*)?
                        None
                    }
                }
            }

            fn deserialize_entry<'de, A: serde::de::MapAccess<'de>>(
                &mut self,
                key: &str,
                map: &mut A,
            ) -> Result<bool, A::Error> {
                match key {
                    $( $key => {
                        self.$field = map.next_value_seed(
                            $crate::model::param_table::FieldSeed::<$ty>::new($range),
                        )?;
                        Ok(true)
                    } )*
                    _ => {
                        $($(
                            if $crate::model::param_table::ParamGroup::deserialize_entry(&mut self.$gfield, key, map)? {
                                return Ok(true);
                            }
                        )*)?
                        Ok(false)
                    }
                }
            }

            fn serialize_entries<M: serde::ser::SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
                $( map.serialize_entry($key, &self.$field)?; )*
                $($( $crate::model::param_table::ParamGroup::serialize_entries(&self.$gfield, map)?; )*)?
                Ok(())
            }
        }
    };
}

/// Implements `Serialize` and `Deserialize` for a [`ParamGroup`] as a flat map of `key = value`
/// (missing keys keep their defaults; an unknown key is an error that suggests the nearest known
/// ones).
#[macro_export]
macro_rules! param_group_serde {
    ($name:ident) => {
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap;
                let mut map = s.serialize_map(None)?;
                $crate::model::param_table::ParamGroup::serialize_entries(self, &mut map)?;
                map.end()
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> serde::de::Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str("a table of parameters (key = value)")
                    }
                    fn visit_map<A: serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<$name, A::Error> {
                        let mut out = <$name>::default();
                        while let Some(key) = map.next_key::<String>()? {
                            if !$crate::model::param_table::ParamGroup::deserialize_entry(
                                &mut out, &key, &mut map,
                            )? {
                                return Err(<A::Error as serde::de::Error>::custom(
                                    $crate::model::param_table::unknown_key_message::<$name>(&key),
                                ));
                            }
                        }
                        Ok(out)
                    }
                }
                d.deserialize_map(V)
            }
        }
    };
}

/// The keys of `G` nearest to `key` (at most three, most similar first; none when nothing is
/// close): the suggestions of an unknown key's error.
pub fn nearest_keys<G: ParamGroup>(key: &str) -> Vec<&'static str> {
    nearest(key, G::specs().iter().map(|s| s.key))
}

/// The names among `known` nearest to `name` (at most three, most similar first; none when nothing
/// is close), by Jaro–Winkler similarity (the `strsim` crate).
pub fn nearest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut scored: Vec<(f64, &str)> = known
        .map(|k| (strsim::jaro_winkler(name, k), k))
        .filter(|(s, _)| *s >= 0.8)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(3).map(|(_, k)| k).collect()
}

/// The message of an unknown key in a group `G`: the key and the nearest known ones.
pub fn unknown_key_message<G: ParamGroup>(key: &str) -> String {
    let hint = did_you_mean(&nearest_keys::<G>(key));
    let shown = crate::io::clip(key);
    if hint.is_empty() {
        format!("unknown parameter `{shown}` (docs/model.md lists every parameter)")
    } else {
        format!("unknown parameter `{shown}`: {hint}")
    }
}

/// What a value of the wrong kind for a parameter of range `range` is told, in place of the
/// type's own message (`invalid type: floating point `7.5`, expected u32`): the range
/// (`expected a whole number in 1 ..= 64`). An unknown name of a [`Range::Choice`] keeps
/// `message`, which names it and lists the names; any other value is told the names.
pub fn bad_value_message(range: &Range, message: &str) -> String {
    match range {
        Range::Number { min, max } => format!("expected a number in {min} ..= {max}"),
        Range::Integer { min, max } => format!("expected a whole number in {min} ..= {max}"),
        Range::UpTo { min, key } => format!("expected a number in {min} ..= {key}"),
        Range::Choice(_) if message.starts_with("unknown variant") => message.to_string(),
        Range::Choice(names) => format!("expected one of {}", names.join(", ")),
    }
}

/// Reads a parameter's value from a scene file or a checkpoint as `T`, a value of the wrong kind
/// an error of [`bad_value_message`] raised at the value (so the file's line is the value's).
pub struct FieldSeed<T> {
    range: Range,
    kind: std::marker::PhantomData<T>,
}

impl<T> FieldSeed<T> {
    /// A seed for a parameter of range `range`.
    pub fn new(range: Range) -> FieldSeed<T> {
        FieldSeed {
            range,
            kind: std::marker::PhantomData,
        }
    }
}

impl<'de, T: serde::de::DeserializeOwned> serde::de::DeserializeSeed<'de> for FieldSeed<T> {
    type Value = T;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        let value = <toml::Value as serde::Deserialize>::deserialize(d)?;
        // The value, quoted short (a file's value may be 100 000 characters long).
        let shown = match &value {
            toml::Value::String(s) => format!("\"{}\"", crate::io::clip(s)),
            // Short (`1e40`, not forty digits).
            toml::Value::Float(f) if f.is_finite() => format!("{f:?}"),
            other => crate::io::clip(&other.to_string()),
        };
        read_field(&self.range, value)
            .map_err(|message| serde::de::Error::custom(format!("{message}, not {shown}")))
    }
}

/// Reads a parameter's value as `T`, the one reading of scene files, checkpoints and `--set`: a
/// value of the wrong kind is an error of [`bad_value_message`], and so is a number beyond the
/// largest f32 (`1e40`) for a [`Range::Number`] or [`Range::UpTo`] field (every such field is an
/// f32, where it would become ±inf and be quoted so).
///
/// # Errors
/// The message, without the value (the caller quotes it as the user wrote it).
pub fn read_field<T: serde::de::DeserializeOwned>(
    range: &Range,
    value: toml::Value,
) -> Result<T, String> {
    let huge =
        matches!(value, toml::Value::Float(f) if f.is_finite() && f.abs() > f64::from(f32::MAX));
    if huge && matches!(range, Range::Number { .. } | Range::UpTo { .. }) {
        return Err(format!(
            "beyond 3.4e38, the largest number a parameter holds: {}",
            bad_value_message(range, "")
        ));
    }
    T::deserialize(value).map_err(|e| bad_value_message(range, e.message()))
}

/// A parameter's value from its text (`0.5`, `12`, `walls`, `"walls"`): the TOML value it reads
/// as, else the trimmed text as a string (so names need no quotes on a command line). TOML's
/// hexadecimal, octal and binary integers (`0x10`, `0o17`, `0b11`) are not read as numbers — a
/// value such as `vicsek_eta=0x10` is a typo far more often than 16 — so the parameter refuses
/// them as not a number.
pub fn parse_value(text: &str) -> toml::Value {
    let t = text.trim();
    let digits = t.trim_start_matches(['+', '-']);
    let radix = ["0x", "0o", "0b", "0X", "0O", "0B"]
        .iter()
        .any(|p| digits.starts_with(p));
    if !t.contains('\n') && !radix {
        if let Ok(table) = format!("v = {t}").parse::<toml::Table>() {
            if let Some(v) = table.get("v") {
                if table.len() == 1 {
                    return v.clone();
                }
            }
        }
    }
    toml::Value::String(t.to_string())
}

/// Checks `value` against a [`Range::Number`], [`Range::Integer`] or [`Range::UpTo`] (whose bound
/// is `upper`). The comparison is in f32, the precision of every parameter (so η = 2π, which
/// rounds up in f32, is within 0 ..= 2π).
///
/// # Errors
/// [`ParamError::OutOfRange`] naming the key, the value and the range (NaN is always out).
pub fn check_number(spec: &ParamSpec, value: f64, upper: Option<f64>) -> Result<(), ParamError> {
    let (min, max) = match spec.range {
        Range::Number { min, max } => (min, max),
        Range::Integer { min, max } => (min as f64, max as f64),
        Range::UpTo { min, .. } => (min, upper.unwrap_or(f64::INFINITY)),
        Range::Choice(_) => return Ok(()),
    };
    let (v, lo, hi) = (value as f32, min as f32, max as f32);
    // `!(a <= b)` is also true for NaN.
    if !(v >= lo && v <= hi) {
        let shown = decimal;
        return Err(ParamError::OutOfRange {
            field: spec.key,
            value,
            min: shown(lo),
            max: if hi.is_finite() { shown(hi) } else { max },
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_are_the_nearest_keys() {
        let keys = [
            "separation_weight",
            "separation_radius",
            "alignment_weight",
            "dt",
        ];
        assert_eq!(
            nearest("sepration_weight", keys.iter().copied())[0],
            "separation_weight"
        );
        assert!(nearest("zzzz", keys.iter().copied()).is_empty());
        assert_eq!(did_you_mean(&["a"]), "did you mean `a`?");
        // Radix prefixes are not numbers on a command line or in a scene's --set.
        for t in ["0x10", "-0x10", "0o17", "0b11", "+0B1"] {
            assert_eq!(parse_value(t), toml::Value::String(t.into()), "{t}");
        }
        assert_eq!(parse_value("16"), toml::Value::Integer(16));
        assert_eq!(parse_value("0.5"), toml::Value::Float(0.5));
        assert_eq!(parse_value("0"), toml::Value::Integer(0));
        assert_eq!(
            did_you_mean(&["a", "b", "c"]),
            "did you mean `a`, `b` or `c`?"
        );
        assert_eq!(did_you_mean(&[]), "");
    }

    #[test]
    fn labels_carry_the_symbol_and_the_unit() {
        let s = ParamSpec {
            key: "vicsek_eta",
            symbol: "η",
            unit: "rad",
            range: number(0.0, 1.0),
            doc: "",
        };
        assert_eq!(s.label(), "η (rad)");
        let t = ParamSpec {
            symbol: "",
            unit: "",
            ..s
        };
        assert_eq!(t.label(), "vicsek_eta");
    }
}
