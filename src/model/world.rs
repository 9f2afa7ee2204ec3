//! [`World`]: the size of the world a state lives in and whether it wraps, as the measures and
//! the census take it.

/// The world a state's measures are taken in: its size and whether it wraps (a periodic milling
/// centre then).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct World {
    /// Width W (wu).
    pub width: f32,
    /// Height H (wu).
    pub height: f32,
    /// Whether the world is a torus (`wrap` boundary).
    pub wrap: bool,
}

impl World {
    /// The world of `params`.
    pub fn of(params: &crate::model::SimParams) -> World {
        World {
            width: params.world_width,
            height: params.world_height,
            wrap: params.boundary == crate::model::Boundary::Wrap,
        }
    }
}
