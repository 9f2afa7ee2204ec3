// Stage `render`: instanced spearheads (issue 4). Placeholder vertex/fragment entry points are
// defined when the renderer lands.
