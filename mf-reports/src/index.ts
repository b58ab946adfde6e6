// Remotes are consumed through remoteEntry.js; this entry only exists for webpack.
export {};
