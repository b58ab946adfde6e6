export function freeTcpPort(): Promise<number>;
export function freeUdpPort(): Promise<number>;
/** An even port p with p..p+3 free and never handed out before (sipp's -mp binds p and p+2). */
export function freeMediaPort(): Promise<number>;
