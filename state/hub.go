package state

import "bhtop/hub"

// Hub hands the writer's latest Snapshot to any number of readers (see
// hub.Hub): a reader holds at most one pending notice, latest wins, so a
// slow or stalled reader never slows the writer. The zero value is ready
// to use; Latest before the first Publish is an empty Snapshot (Version 0).
type Hub = hub.Hub[Snapshot]
