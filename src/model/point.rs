//! Points as files write them (`[x, y]`, wu or wu/s): exactly two numbers, read by serde for the
//! model's types that scene files and checkpoints hold (obstacle points, predators).

use serde::Deserialize;

/// Reads a point `[x, y]` (wu, wu/s): exactly two numbers. (Serde reads a `[f32; 2]` from the
/// first two numbers of a longer array and drops the rest.)
struct Point([f32; 2]);

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Point, D::Error> {
        // The count is checked inside the visitor, so the error carries the array's own place
        // (toml gives an error raised after the array was read the place of what holds it).
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Point;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a point: exactly two numbers [x, y]")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Point, A::Error> {
                let mut v: Vec<f32> = Vec::with_capacity(2);
                while let Some(x) = seq.next_element::<f32>()? {
                    v.push(x);
                }
                match v[..] {
                    [x, y] => Ok(Point([x, y])),
                    _ => {
                        let shown: Vec<String> = v.iter().take(4).map(f32::to_string).collect();
                        let more = if v.len() > 4 { ", …" } else { "" };
                        Err(serde::de::Error::custom(format!(
                            "[{}{more}] has {} number{}: a point is exactly two numbers [x, y]",
                            shown.join(", "),
                            v.len(),
                            if v.len() == 1 { "" } else { "s" }
                        )))
                    }
                }
            }
        }
        d.deserialize_seq(Visitor)
    }
}

/// `deserialize_with` of a point field: exactly two numbers (`Point`).
pub fn point<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[f32; 2], D::Error> {
    Point::deserialize(d).map(|p| p.0)
}

/// `deserialize_with` of a list of points: each exactly two numbers (`Point`).
pub fn points<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<[f32; 2]>, D::Error> {
    Vec::<Point>::deserialize(d).map(|v| v.into_iter().map(|p| p.0).collect())
}
