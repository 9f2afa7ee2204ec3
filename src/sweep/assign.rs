//! Setting a parameter by name, generically: the parameters are serialized to a TOML table (the
//! scene file's `[params]` form), the named entry is replaced, and the caller deserializes and
//! validates the result. So every numeric field of [`crate::model::SimParams`] can be swept
//! without a list of names here, and a field added later is sweepable at once.
//!
//! Floating-point fields take the value as given (rounded to f32 when deserialized); integer
//! fields (counts) need a whole number ≥ 0. Non-numeric fields (the `boundary` mode) cannot be swept.

/// The two names that are not parameter fields: the boid count and the density.
pub const SPECIAL: [&str; 2] = ["boids", "density"];

/// The sweepable names: `boids`, `density`, and the numeric keys of `table`, sorted.
pub fn sweepable(table: &toml::Table) -> Vec<String> {
    let mut names: Vec<String> = table
        .iter()
        .filter(|(_, v)| v.is_float() || v.is_integer())
        .map(|(k, _)| k.clone())
        .collect();
    names.sort();
    SPECIAL.iter().map(|s| s.to_string()).chain(names).collect()
}

/// Replaces entry `name` of `table` by `value`.
///
/// # Errors
/// A message naming the parameter: unknown (with the list of sweepable names), not numeric, or a
/// fractional value for an integer field.
pub fn set_field(table: &mut toml::Table, name: &str, value: f64) -> Result<(), String> {
    let known = sweepable(table).join(", ");
    let slot = table
        .get_mut(name)
        .ok_or_else(|| format!("--param {name:?} is not a parameter; sweepable names: {known}"))?;
    *slot = match slot {
        toml::Value::Float(_) => toml::Value::Float(value),
        toml::Value::Integer(_) => {
            if value.fract() != 0.0 || value.abs() > 9.0e15 {
                return Err(format!(
                    "{name} = {value}: {name} is a whole number; give whole values"
                ));
            }
            // The integer fields are counts (unsigned); the upper limit is `validate`'s.
            if value < 0.0 {
                return Err(format!(
                    "{name} = {value} is out of range: {name} is a count, 0 or more"
                ));
            }
            toml::Value::Integer(value as i64)
        }
        other => {
            return Err(format!(
                "--param {name}: {name} is not numeric (it is a {}), so it cannot be swept; \
                 sweepable names: {known}",
                other.type_str()
            ))
        }
    };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> toml::Table {
        toml::from_str("rotational_diffusion = 0.0\nmax_neighbors = 0\nboundary = \"wrap\"\n")
            .unwrap()
    }

    #[test]
    fn sets_numbers_and_refuses_the_rest() {
        let mut t = table();
        set_field(&mut t, "rotational_diffusion", 1.5).unwrap();
        assert_eq!(t["rotational_diffusion"].as_float(), Some(1.5));
        set_field(&mut t, "max_neighbors", 8.0).unwrap();
        assert_eq!(t["max_neighbors"].as_integer(), Some(8));
        let e = set_field(&mut t, "max_neighbors", 7.5).unwrap_err();
        assert!(e.contains("whole"), "{e}");
        let e = set_field(&mut t, "max_neighbors", -1.0).unwrap_err();
        assert!(e.contains("max_neighbors = -1 is out of range"), "{e}");
        let e = set_field(&mut t, "nosie", 1.0).unwrap_err();
        assert!(e.contains("\"nosie\" is not a parameter"), "{e}");
        assert!(
            e.contains("boids, density, max_neighbors, rotational_diffusion"),
            "{e}"
        );
        let e = set_field(&mut t, "boundary", 1.0).unwrap_err();
        assert!(e.contains("not numeric"), "{e}");
    }
}
