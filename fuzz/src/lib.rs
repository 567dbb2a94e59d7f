//! What the fuzz targets share: small games built from bytes, and a scratch file per process.

use grundy::Game;
use std::path::PathBuf;

/// A scratch file of this process (the file-format targets write their input there).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-fuzz-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir.join(name)
}

/// A game given by its graph: node `i` moves to the nodes of `moves[i]` (all below `i`, so it
/// ends), and a position is a sum of nodes (sorted), split into its nodes.
#[derive(Clone, Debug)]
pub struct DagSum {
    pub moves: Vec<Vec<u8>>,
}

impl DagSum {
    /// Up to 24 nodes from bytes: node `i` gets the earlier nodes whose bit is set in its
    /// bytes.
    pub fn from_bytes(data: &[u8]) -> Self {
        let n = (data.first().copied().unwrap_or(0) % 24) as usize + 1;
        let mut moves = Vec::with_capacity(n);
        let mut bytes = data.iter().skip(1).copied().cycle();
        for i in 0..n {
            let mut m = Vec::new();
            let mut word = 0u32;
            if !data.is_empty() {
                for k in 0..3 {
                    word |= u32::from(bytes.next().unwrap_or(0)) << (8 * k);
                }
            }
            for j in 0..i {
                if word >> (j % 24) & 1 == 1 {
                    m.push(j as u8);
                }
            }
            moves.push(m);
        }
        DagSum { moves }
    }
}

impl Game for DagSum {
    type Position = Vec<u8>;
    fn options(&self, p: &Vec<u8>, out: &mut Vec<Vec<u8>>) {
        for (i, &x) in p.iter().enumerate() {
            for &y in &self.moves[x as usize] {
                let mut q = p.clone();
                q[i] = y;
                q.sort_unstable();
                out.push(q);
            }
        }
    }
    fn components(&self, p: &Vec<u8>) -> Option<Vec<Vec<u8>>> {
        (p.len() > 1).then(|| p.iter().map(|&x| vec![x]).collect())
    }
}
